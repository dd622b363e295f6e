package dev.cachegateway.gateway.history;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import dev.cachegateway.gateway.history.History.Fault;
import dev.cachegateway.gateway.history.History.Request;

/**
 * The shortest part of a history that shows a violation: the requests for its resource
 * within two seconds of it, and the faults that were on then, in the order they began.
 */
final class HistorySlices {

    private static final long AROUND = Duration.ofSeconds(2).toNanos();

    private final List<Request> requests;

    private final List<Fault> faults;

    HistorySlices(List<Request> requests, List<Fault> faults) {
        this.requests = requests;
        this.faults = faults;
    }

    String around(Request request) {
        return around(request.originPath(), request.startedAt());
    }

    String around(String originPath, long at) {
        String near = requests.stream()
            .filter(r -> r.originPath().equals(originPath))
            .filter(r -> Math.abs(r.startedAt() - at) < AROUND)
            .map(r -> "\n    " + r)
            .collect(Collectors.joining());
        String on = faults.stream()
            .filter(f -> f.startedAt() - AROUND < at && at < f.endedAt() + AROUND)
            .map(f -> "\n    fault " + f)
            .collect(Collectors.joining());
        return near + on;
    }

}
