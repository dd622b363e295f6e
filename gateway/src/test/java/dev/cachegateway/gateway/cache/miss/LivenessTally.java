package dev.cachegateway.gateway.cache.miss;

import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;

import org.jspecify.annotations.Nullable;

import org.springframework.http.ResponseEntity;

/**
 * What the liveness rounds of one client came to: every request answered 200 with its
 * body within the bound, or late (answered after the bound), lost (no answer at all
 * before the client gave up) or wrong; and the backend calls beyond one a round, which
 * coalescing should spare.
 */
final class LivenessTally {

    /** How many failures are told in full; the rest are counted. */
    static final int TOLD = 20;

    /**
     * One request of a round: its answer or what the client saw instead, and how long it
     * took.
     */
    record Outcome(int index, String id, @Nullable ResponseEntity<byte[]> answer, @Nullable Throwable failure,
            Duration took) {
    }

    private final LivenessClient client;

    private final Duration bound;

    private final long startedAt = System.nanoTime();

    private int rounds;

    private int requests;

    private int lost;

    private int late;

    private int wrong;

    private int extraBackendCalls;

    private final List<String> extraCallRounds = new ArrayList<>();

    private final Map<String, Integer> xCache = new TreeMap<>();

    private final Map<String, Integer> untimedOther = new TreeMap<>();

    private final List<String> failures = new ArrayList<>();

    LivenessTally(LivenessClient client, Duration bound) {
        this.client = client;
        this.bound = bound;
    }

    /**
     * Counts one round's outcomes; {@code gateway} tells what the gateway saw of a
     * request by its id, in time since {@code roundStartedAt}. An untimed round is judged
     * on its answers alone.
     */
    void round(int round, boolean timed, byte[] body, List<Outcome> outcomes, int backendCalls, long roundStartedAt,
            RequestsSeen gateway) {
        rounds++;
        requests += outcomes.size();
        if (backendCalls != 1) {
            extraBackendCalls += Math.max(0, backendCalls - 1);
            if (extraCallRounds.size() < TOLD) {
                extraCallRounds.add("round " + round + ": " + backendCalls + " calls");
            }
        }
        for (Outcome outcome : outcomes) {
            String failure = judge(outcome, body, timed);
            if (outcome.answer() != null) {
                xCache.merge(String.valueOf(outcome.answer().getHeaders().getFirst("X-Cache")), 1, Integer::sum);
            }
            if (failure != null && failures.size() < TOLD) {
                failures.add("round " + round + ", request #" + outcome.index() + " (" + outcome.id() + "): " + failure
                        + " after " + outcome.took().toMillis() + " ms; "
                        + gateway.describe(outcome.id(), roundStartedAt) + "; " + backendCalls
                        + " backend calls this round");
            }
        }
    }

    private @Nullable String judge(Outcome outcome, byte[] body, boolean timed) {
        ResponseEntity<byte[]> answer = outcome.answer();
        if (answer == null) {
            boolean timedOut = outcome.failure() instanceof TimeoutException
                    || outcome.failure() instanceof HttpTimeoutException;
            if (timedOut) {
                lost++;
            }
            else {
                wrong++;
            }
            return (timedOut ? "no answer" : "failed with " + outcome.failure());
        }
        boolean expected = answer.getStatusCode().value() == 200 && Arrays.equals(answer.getBody(), body);
        if (!timed) {
            if (!expected) {
                untimedOther.merge(answer.getStatusCode().value() + " " + answer.getHeaders().getFirst("X-Cache"), 1,
                        Integer::sum);
            }
            return null;
        }
        if (!expected) {
            wrong++;
            byte[] got = answer.getBody() != null ? answer.getBody() : new byte[0];
            return "answered " + answer.getStatusCode().value() + ", X-Cache " + answer.getHeaders().getFirst("X-Cache")
                    + ", with a body of " + got.length + " bytes: "
                    + new String(got, 0, Math.min(got.length, 200), StandardCharsets.UTF_8);
        }
        if (outcome.took().compareTo(bound) > 0) {
            late++;
            return "answered late";
        }
        return null;
    }

    /** Every request answered 200 with its body within the bound. */
    boolean live() {
        return lost + late + wrong == 0;
    }

    String summary() {
        Duration took = Duration.ofNanos(System.nanoTime() - startedAt);
        return client + ": " + rounds + " rounds, " + requests + " requests, " + lost + " lost, " + late
                + " late (bound " + bound.toMillis() + " ms), " + wrong + " wrong, " + extraBackendCalls
                + " extra backend calls" + (extraCallRounds.isEmpty() ? "" : " " + extraCallRounds) + ", X-Cache "
                + xCache + "; the first round, judged on being answered only, had " + untimedOther
                + " besides 200s; in " + took.toSeconds() + " s";
    }

    String failures() {
        int count = lost + late + wrong;
        return String.join("\n", failures)
                + (count > failures.size() ? "\n... and " + (count - failures.size()) + " more" : "");
    }

}
