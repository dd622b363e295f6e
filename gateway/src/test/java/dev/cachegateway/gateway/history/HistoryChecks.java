package dev.cachegateway.gateway.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import dev.cachegateway.gateway.history.History.Request;
import dev.cachegateway.gateway.history.VersionedOrigin.Call;

/**
 * The rules a history must keep, each as a list of violations, each violation with the slice of the history that
 * shows it: every request answered within its bound; no read answered with a version older than a write that was
 * answered before the read began (explicit STALE and UPDATING answers aside); every answer one the origin gave, for
 * that resource and variant; and at most one origin call per resource, variant and version.
 */
final class HistoryChecks {

    private static final Set<String> DECLARED_STALE = Set.of("STALE", "UPDATING");

    private final List<Request> requests;

    private final List<Call> calls;

    HistoryChecks(History history, List<Call> calls) {
        this.requests = history.requests().stream().sorted(Comparator.comparingLong(Request::startedAt)).toList();
        this.calls = calls;
    }

    /** Requests that failed, got an unexpected status, or took longer than {@code bound}. */
    List<String> unanswered(Duration bound) {
        return requests.stream()
                .filter(r -> r.failure() != null || (r.status() != 200 && r.status() != 304)
                        || r.endedAt() - r.startedAt() > bound.toNanos())
                .map(r -> "not answered within " + bound + ": " + r).toList();
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
                if (!write.isRead() && write.originPath().equals(read.originPath()) && write.status() == 200
                        && write.endedAt() < read.startedAt() && (latest == null || write.version() > latest.version())) {
                    latest = write;
                }
            }
            if (latest != null && read.version() < latest.version()) {
                violations.add("read older than a finished write: " + read + " after " + latest + slice(read));
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

    /**
     * Origin calls beyond the first for one resource, variant and version that no documented case excuses. The
     * excused ones are counted in {@link #excusedOriginCalls}: after a write answered once the first call's request
     * had arrived (that lead may predate the write, so its answer is kept out, and a request after the write does
     * not join it), and, for an answer that varies, a second call from the other gateway (a varying answer's lock is
     * deleted once it is stored, so a replica whose lookup missed just before that store leads again).
     */
    List<String> repeatedOriginCalls() {
        return originCalls(false);
    }

    /** The repeated origin calls that a documented case excuses. */
    List<String> excusedOriginCalls() {
        return originCalls(true);
    }

    private List<String> originCalls(boolean excused) {
        Map<String, List<Call>> byVersion = calls.stream().filter(call -> call.method().equals("GET"))
                .sorted(Comparator.comparingLong(Call::startedAt))
                .collect(Collectors.groupingBy(call -> call.path() + " " + call.language() + " v" + call.version()));
        List<String> found = new ArrayList<>();
        byVersion.forEach((what, sameVersion) -> {
            for (int i = 1; i < sameVersion.size(); i++) {
                Call first = sameVersion.get(0);
                Call again = sameVersion.get(i);
                Optional<Request> lead = leaderOf(first);
                // Two calls that began together may have been asked in either order: the earlier lead counts.
                long firstAsked = Math.min(lead.map(Request::startedAt).orElse(first.startedAt()),
                        leaderOf(again).map(Request::startedAt).orElse(again.startedAt()));
                boolean byWrite = writeBetween(first.path(), firstAsked, again.startedAt());
                boolean byVariant = first.path().contains(VersionedOrigin.VARYING) && lead.isPresent()
                        && leaderOf(again).map(other -> other.gateway() != lead.get().gateway()).orElse(false);
                if ((byWrite || byVariant) == excused) {
                    found.add(String.format("origin call %d for %s: s%d at %.1f ms, s%d at %.1f ms%s", i + 1, what,
                            first.serial(), first.startedAt() / 1e6 % 1e6, again.serial(),
                            again.startedAt() / 1e6 % 1e6, slice(first.path(), first.startedAt())));
                }
            }
        });
        return found;
    }

    // The first request that got this call's answer: the lead, which arrived before its call began.
    private Optional<Request> leaderOf(Call call) {
        return requests.stream().filter(r -> Long.toString(call.serial()).equals(r.field("serial")))
                .min(Comparator.comparingLong(Request::startedAt));
    }

    // A write answered after the first call's request arrived, and sent before the second call began: the first
    // call's lead may be from before it, and a request after it does not join that lead.
    private boolean writeBetween(String path, long from, long to) {
        return requests.stream().anyMatch(r -> !r.isRead() && r.originPath().equals(path) && r.endedAt() > from
                && r.startedAt() < to);
    }

    // The requests for the resource, around the one that shows a violation.
    private String slice(Request around) {
        return requests.stream().filter(r -> r.originPath().equals(around.originPath()))
                .filter(r -> Math.abs(r.startedAt() - around.startedAt()) < Duration.ofSeconds(2).toNanos())
                .map(r -> "\n    " + r).collect(Collectors.joining());
    }

    private String slice(String path, long around) {
        return requests.stream().filter(r -> r.originPath().equals(path))
                .filter(r -> Math.abs(r.startedAt() - around) < Duration.ofSeconds(2).toNanos())
                .map(r -> "\n    " + r).collect(Collectors.joining());
    }
}
