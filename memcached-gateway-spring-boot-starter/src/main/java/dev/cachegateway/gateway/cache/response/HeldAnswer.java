package dev.cachegateway.gateway.cache.response;

import org.springframework.http.HttpHeaders;

/**
 * An answer handed on some time after it came, such as a leader's answer given to a request that joined its lead
 * after the backend answered: its {@code Age} (RFC 9111 4.2.3) grows by the whole seconds it was held, so that it
 * is never younger than the same answer from memcached.
 */
public final class HeldAnswer {

    private HeldAnswer() {
    }

    /** {@code answer} as it stands {@code heldMillis} after it came; itself when that is under a second. */
    public static CapturedResponse aged(CapturedResponse answer, long heldMillis) {
        long held = heldMillis / 1000;
        if (held <= 0) {
            return answer;
        }
        HttpHeaders headers = HttpHeaders.copyOf(answer.headers());
        headers.set(HttpHeaders.AGE, Long.toString(ageOf(answer.headers()) + held));
        return new CapturedResponse(answer.status(), headers, answer.body());
    }

    // RFC 9111 5.1: a value that is not a non-negative integer is no Age.
    private static long ageOf(HttpHeaders headers) {
        String age = headers.getFirst(HttpHeaders.AGE);
        try {
            return age == null ? 0 : Math.max(0, Long.parseLong(age.trim()));
        }
        catch (NumberFormatException ex) {
            return 0;
        }
    }
}
