package dev.cachegateway.gateway.cache.response;

import dev.cachegateway.gateway.cache.policy.Freshness;

import org.springframework.http.HttpHeaders;

/**
 * An answer handed on some time after it came, such as a leader's answer given to a
 * request that joined its lead after the backend answered. Its {@code Age} (RFC 9111
 * 4.2.3) is what it was, or the time since its {@code Date} if that is more (the apparent
 * age: a gateway that was paused while the answer waited to be read took it late), plus
 * the whole seconds it was held: never younger than the same answer from memcached.
 */
public final class HeldAnswer {

    private HeldAnswer() {
    }

    /**
     * {@code answer} as it stands {@code heldMillis} after it came; itself when its
     * {@code Age} stays as it is.
     */
    public static CapturedResponse aged(CapturedResponse answer, long heldMillis) {
        return aged(answer, heldMillis, System.currentTimeMillis());
    }

    /** The same, at {@code nowMillis}. */
    static CapturedResponse aged(CapturedResponse answer, long heldMillis, long nowMillis) {
        long age = Freshness.age(answer.headers());
        long date = dateOf(answer.headers());
        long apparent = date >= 0 ? Math.max(0, (nowMillis - date) / 1000) : 0;
        long aged = Math.max(age + heldMillis / 1000, apparent);
        if (aged == age) {
            return answer;
        }
        HttpHeaders headers = HttpHeaders.copyOf(answer.headers());
        headers.set(HttpHeaders.AGE, Long.toString(aged));
        return new CapturedResponse(answer.status(), headers, answer.body());
    }

    // -1 for none, or one that is no HTTP-date.
    private static long dateOf(HttpHeaders headers) {
        try {
            return headers.getFirstDate(HttpHeaders.DATE);
        }
        catch (IllegalArgumentException ex) {
            return -1;
        }
    }

}
