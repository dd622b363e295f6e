package dev.cachegateway.demo.history;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/** Every request a run sent through the gateways, as its client saw it. */
final class History {

    private static final Pattern FIELD = Pattern.compile("\"(path|version|serial|language)\":\"?([^\",}]*)");

    /**
     * One request: what was asked, of which gateway, when, and what came back. Times are
     * {@link System#nanoTime()}.
     *
     * @param originPath the path the origin sees for it, which names the resource
     */
    record Request(int id, int gateway, String method, String path, String originPath, @Nullable String language,
            long startedAt, long endedAt, int status, @Nullable String body, @Nullable String xCache,
            @Nullable String cacheStatus, @Nullable String age, @Nullable String failure) {

        boolean isRead() {
            return method.equals("GET");
        }

        boolean isWrite() {
            return method.equals("PUT");
        }

        boolean isPurge() {
            return method.equals(PURGE) || method.equals(SOFT_PURGE);
        }

        /** Given up on by its client, on purpose: no answer is expected. */
        boolean cancelled() {
            return failure != null && failure.startsWith(CANCELLED);
        }

        /**
         * A field of the origin's JSON answer, or null: path, version, serial or
         * language.
         */
        @Nullable String field(String name) {
            if (body == null) {
                return null;
            }
            Matcher matcher = FIELD.matcher(body);
            while (matcher.find()) {
                if (matcher.group(1).equals(name)) {
                    return matcher.group(2);
                }
            }
            return null;
        }

        int version() {
            String version = field("version");
            return version != null ? Integer.parseInt(version) : -1;
        }

        @Override
        public String toString() {
            return String.format("#%d gw%d %s %s%s [%.1f..%.1f ms] -> %d %s v%s s%s age=%s (%s)%s", id, gateway, method,
                    path, language != null ? " (" + language + ")" : "", startedAt / 1e6 % 1e6, endedAt / 1e6 % 1e6,
                    status, xCache, field("version"), field("serial"), age, cacheStatus,
                    failure != null ? " " + failure : "");
        }
    }

    /** The method a purge through a gateway's invalidation endpoint is recorded under. */
    static final String PURGE = "PURGE";

    /** The method a soft purge ({@code soft=true}) is recorded under. */
    static final String SOFT_PURGE = "SOFT_PURGE";

    /** How the failure of a request its client gave up on begins. */
    static final String CANCELLED = "cancelled";

    /**
     * A fault injected during the run, from when it began to when it was healed; times as
     * a request's.
     */
    record Fault(FaultSchedule.Kind kind, long startedAt, long endedAt) {

        boolean overlaps(long from, long to) {
            return startedAt <= to && from <= endedAt;
        }

        @Override
        public String toString() {
            return String.format("%s [%.1f..%.1f ms]", kind, startedAt / 1e6 % 1e6, endedAt / 1e6 % 1e6);
        }
    }

    private final List<Request> requests = new CopyOnWriteArrayList<>();

    private final List<Fault> faults = new CopyOnWriteArrayList<>();

    void add(Request request) {
        requests.add(request);
    }

    void add(Fault fault) {
        faults.add(fault);
    }

    List<Fault> faults() {
        return List.copyOf(faults);
    }

    List<Request> requests() {
        return List.copyOf(requests);
    }

}
