package dev.cachegateway.demo.history;

import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import dev.cachegateway.demo.history.History.Fault;
import dev.cachegateway.demo.history.History.Request;
import dev.cachegateway.demo.history.VersionedOrigin.Call;

/**
 * The shortest part of a history that shows a violation: the requests for its resource
 * within two seconds of it, the origin's answers to calls for it then, and the faults
 * that were on then, in the order they began.
 */
final class HistorySlices {

    private static final long AROUND = Duration.ofSeconds(2).toNanos();

    private final List<Request> requests;

    private final List<Fault> faults;

    private final List<Call> calls;

    HistorySlices(List<Request> requests, List<Fault> faults, List<Call> calls) {
        this.requests = requests;
        this.faults = faults;
        this.calls = calls;
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
        // Which of a lost request's steps never ended shows in whether the origin was
        // asked for its resource, and when.
        String asked = calls.stream()
            .filter(c -> c.path().equals(originPath))
            .filter(c -> Math.abs(c.startedAt() - at) < AROUND)
            .map(c -> "\n    " + c)
            .collect(Collectors.joining());
        String on = faults.stream()
            .filter(f -> f.startedAt() - AROUND < at && at < f.endedAt() + AROUND)
            .map(f -> "\n    fault " + f)
            .collect(Collectors.joining());
        return near + asked + on;
    }

}
