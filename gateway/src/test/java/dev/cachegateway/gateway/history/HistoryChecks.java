package dev.cachegateway.gateway.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.cachegateway.gateway.history.History.Request;
import dev.cachegateway.gateway.history.RepeatedCalls.Excuse;
import dev.cachegateway.gateway.history.RepeatedCalls.Repeat;
import dev.cachegateway.gateway.history.VersionedOrigin.Call;

/**
 * The rules a history must keep, each as a list of violations, each violation with the slice of the history that
 * shows it:
 * <ul>
 * <li>every request answered within its bound, a 200 or 304 (a purge: a 200), but those whose client gave up on
 * purpose, which are counted;</li>
 * <li>no read answered with a version older than a write that was answered before the read began (explicit STALE
 * and UPDATING answers aside);</li>
 * <li>every answer one the origin gave, for that resource and variant;</li>
 * <li>at most one origin call per resource, variant and version, but for the documented cases, which are counted:
 * {@link Excuse#WRITE} a write answered once the first call's request had arrived (that lead may predate the write,
 * so its answer is kept out, and a request after the write does not join it); {@link Excuse#VARIANT} for an answer
 * that varies, a second call from the other gateway (a varying answer's lock is deleted once it is stored, so a
 * replica whose lookup missed just before that store leads again); {@link Excuse#PURGE} a purge of the resource that
 * ended after the first call began and began before the second; and {@link Excuse#LEAD_CANCELLED} a request for the
 * same variant, asked before the first call began, whose client gave up before the second began and no more than a
 * second before the first began: its lead did not store its answer.</li>
 * </ul>
 */
final class HistoryChecks {

    private static final Set<String> DECLARED_STALE = Set.of("STALE", "UPDATING");

    private final List<Request> requests;

    private final List<Call> calls;

    private final HistorySlices slices;

    private final List<Repeat> repeats;

    HistoryChecks(History history, List<Call> calls) {
        this.requests = history.requests().stream().sorted(Comparator.comparingLong(Request::startedAt)).toList();
        this.calls = calls;
        this.slices = new HistorySlices(requests);
        this.repeats = new RepeatedCalls(requests, calls, slices).all();
    }

    /** Requests that failed, got an unexpected status, or took longer than {@code bound}. */
    List<String> unanswered(Duration bound) {
        return requests.stream().filter(r -> !r.cancelled())
                .filter(r -> r.failure() != null || !expected(r) || r.endedAt() - r.startedAt() > bound.toNanos())
                .map(r -> "not answered within " + bound + ": " + r + slices.around(r)).toList();
    }

    /** How many requests their clients gave up on. */
    long cancelled() {
        return requests.stream().filter(Request::cancelled).count();
    }

    private static boolean expected(Request request) {
        return request.isPurge() ? request.status() == 200 : request.status() == 200 || request.status() == 304;
    }

    /** Reads answered with a version older than a write to the same resource that was answered before they began. */
    List<String> olderThanAFinishedWrite() {
        List<String> violations = new ArrayList<>();
        for (Request read : requests) {
            if (!read.isRead() || read.status() != 200 || DECLARED_STALE.contains(read.xCache())) {
                continue;
            }
            Request latest = null;
            for (Request write : requests) {
                if (write.isWrite() && write.originPath().equals(read.originPath()) && write.status() == 200
                        && write.endedAt() < read.startedAt() && (latest == null || write.version() > latest.version())) {
                    latest = write;
                }
            }
            if (latest != null && read.version() < latest.version()) {
                violations.add("read older than a finished write: " + read + " after " + latest
                        + slices.around(read));
            }
        }
        return violations;
    }

    /** Answers that the origin never gave for that resource and variant. */
    List<String> crossTalk() {
        Map<String, Call> bySerial = calls.stream().filter(call -> call.method().equals("GET"))
                .collect(Collectors.toMap(call -> Long.toString(call.serial()), call -> call));
        List<String> violations = new ArrayList<>();
        for (Request read : requests) {
            if (!read.isRead() || read.status() != 200) {
                continue;
            }
            Call call = bySerial.get(read.field("serial"));
            boolean same = call != null && call.path().equals(read.originPath()) && call.version() == read.version()
                    && Objects.equals(read.field("path"), read.originPath())
                    && (read.language() == null || read.language().equals(call.language()));
            if (!same) {
                violations.add("an answer the origin did not give for it: " + read + " origin: " + call);
            }
        }
        return violations;
    }

    /** Origin calls beyond the first for one resource, variant and version that no documented case excuses. */
    List<String> repeatedOriginCalls() {
        return repeats.stream().filter(repeat -> repeat.excuse() == null).map(Repeat::toString).toList();
    }

    /** How many repeated origin calls each documented case excused. */
    Map<Excuse, Long> excusedOriginCalls() {
        return repeats.stream().filter(repeat -> repeat.excuse() != null)
                .collect(Collectors.groupingBy(Repeat::excuse, TreeMap::new, Collectors.counting()));
    }
}
