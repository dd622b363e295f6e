package dev.cachegateway.demo.history;

import java.util.Random;

import org.jspecify.annotations.Nullable;

/**
 * What a client of the history sends next, as its seed decides: GETs of a few hot
 * resources and a longer tail of cold ones, on the body route or, for resources that
 * vary, on the whole-answer route in one of two languages; conditional GETs; writes; hard
 * and soft purges, by path, key or tag; and now and then a GET whose client gives up
 * after a while.
 */
final class RequestMix {

    /** How long a client that gives up waits, at least and at most. */
    static final int CANCEL_MIN_MILLIS = 20;

    static final int CANCEL_MAX_MILLIS = 300;

    /**
     * One request to send.
     *
     * @param originPath the path the origin sees, which names the resource
     * @param cancelAfterMillis when the client gives up, or 0 when it waits for the
     * answer
     */
    record Step(int gateway, String method, String originPath, String path, @Nullable String language,
            boolean conditional, int cancelAfterMillis) {

        /**
         * The whole-answer route's items are keyed by {@code http:} and the path the
         * client asked for: its key is computed before the route rewrites the path.
         */
        String purgedKey() {
            return path.equals(originPath) ? originPath : "http:" + path;
        }
    }

    private RequestMix() {
    }

    static Step next(Random random, int gateways) {
        int gateway = random.nextInt(gateways);
        boolean varying = random.nextInt(4) == 0;
        int resource = random.nextInt(3) == 0 ? random.nextInt(12) : random.nextInt(3);
        String originPath = "/api/v1/comments/" + (varying ? "w-" : "b-") + resource;
        String path = varying ? originPath.replace("/api/v1/", "/api/v1/whole/") : originPath;
        String language = varying ? (random.nextBoolean() ? "en" : "fr") : null;
        int kind = random.nextInt(40);
        // Drawn from what was drawn already, so that a seed's other steps stay as they
        // were.
        String purge = resource % 2 == 1 ? History.SOFT_PURGE : History.PURGE;
        String method = kind < 6 ? "PUT" : kind == 6 ? purge : "GET";
        boolean gives = method.equals("GET") && random.nextInt(10) == 0;
        int cancelAfter = gives ? CANCEL_MIN_MILLIS + random.nextInt(CANCEL_MAX_MILLIS - CANCEL_MIN_MILLIS + 1) : 0;
        return new Step(gateway, method, originPath, path, language, kind == 7 || kind == 8, cancelAfter);
    }

}
