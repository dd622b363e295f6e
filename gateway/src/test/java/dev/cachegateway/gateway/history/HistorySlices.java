package dev.cachegateway.gateway.history;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import dev.cachegateway.gateway.history.History.Request;

/**
 * The shortest part of a history that shows a violation: the requests for its resource within two seconds of it.
 */
final class HistorySlices {

    private static final long AROUND = Duration.ofSeconds(2).toNanos();

    private final List<Request> requests;

    HistorySlices(List<Request> requests) {
        this.requests = requests;
    }

    String around(Request request) {
        return around(request.originPath(), request.startedAt());
    }

    String around(String originPath, long at) {
        return requests.stream().filter(r -> r.originPath().equals(originPath))
                .filter(r -> Math.abs(r.startedAt() - at) < AROUND).map(r -> "\n    " + r)
                .collect(Collectors.joining());
    }
}
