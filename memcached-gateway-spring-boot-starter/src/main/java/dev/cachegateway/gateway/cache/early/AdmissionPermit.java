package dev.cachegateway.gateway.cache.early;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.cachegateway.gateway.overload.AdmissionLimitFilter;
import org.jspecify.annotations.Nullable;

/**
 * The admission limit's permit for one request that {@link FastHitHandler} takes, given
 * back once: on hand-over, or when the answer ends, or is cancelled while the lookup is
 * still out.
 */
final class AdmissionPermit extends AtomicBoolean {

    static final AdmissionPermit NONE = new AdmissionPermit(null);

    private final @Nullable AdmissionLimitFilter door;

    AdmissionPermit(@Nullable AdmissionLimitFilter door) {
        this.door = door;
    }

    void release() {
        if (door != null && compareAndSet(false, true)) {
            door.release();
        }
    }

}
