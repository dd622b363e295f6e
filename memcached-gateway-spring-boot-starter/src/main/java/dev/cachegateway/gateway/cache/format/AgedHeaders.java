package dev.cachegateway.gateway.cache.format;

import dev.cachegateway.gateway.cache.response.WireHeaders;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * A whole answer's headers as its hits send them: the stored ones with {@code Age}, and a
 * {@code Date} where it has none. Both change at most once a second, so the headers made
 * for one hit serve every other hit on the item in the same second at the same age,
 * rather than each hit copying them.
 */
final class AgedHeaders implements HitHeaders {

    private final HttpHeaders stored;

    private final boolean dated;

    private volatile @Nullable Made last;

    AgedHeaders(HttpHeaders stored) {
        this.stored = HttpHeaders.readOnlyHttpHeaders(stored);
        this.dated = stored.containsHeader(HttpHeaders.DATE);
    }

    @Override
    public WireHeaders at(long ageSeconds, long nowMillis) {
        // A stored Date makes the headers depend on the age alone.
        long second = dated ? 0 : Math.floorDiv(nowMillis, 1000);
        Made made = last;
        if (made != null && made.ageSeconds() == ageSeconds && made.second() == second) {
            return made.headers();
        }
        HttpHeaders headers = HttpHeaders.copyOf(stored);
        headers.set(HttpHeaders.AGE, Long.toString(ageSeconds));
        if (!dated) {
            headers.setDate(nowMillis);
        }
        WireHeaders readOnly = new WireHeaders(HttpHeaders.readOnlyHttpHeaders(headers));
        last = new Made(ageSeconds, second, readOnly);
        return readOnly;
    }

    private record Made(long ageSeconds, long second, WireHeaders headers) {
    }

}
