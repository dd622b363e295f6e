package dev.cachegateway.demo.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import dev.cachegateway.demo.history.History.Fault;
import dev.cachegateway.demo.history.History.Request;
import dev.cachegateway.demo.history.RepeatedCalls.Excuse;
import dev.cachegateway.demo.history.RepeatedCalls.Repeat;
import dev.cachegateway.demo.history.VersionedOrigin.Call;

/**
 * The rules a history must keep, each as a list of violations, each violation with the
 * slice of the history that shows it:
 * <ul>
 * <li>every request answered within its bound, a 200 or 304 (a purge: a 200), but those
 * whose client gave up on purpose, which are counted;</li>
 * <li>no read answered with a version older than a write that was answered before the
 * read began (explicit STALE and UPDATING answers aside);</li>
 * <li>every answer one the origin gave, for that resource and variant;</li>
 * <li>every answer's age true to the origin's clock ({@link AgeChecks});</li>
 * <li>at most one origin call per resource, variant and version, but for the documented
 * cases, which are counted: {@link Excuse#WRITE} a write answered once the first call's
 * request had arrived (that lead may predate the write, so its answer is kept out, and a
 * request after the write does not join it; a call no client got, its lead's client
 * having left up to the lock timeout before it, counts from that client's request);
 * {@link Excuse#VARIANT} for an answer that varies, a second call from the other gateway
 * (a varying answer's lock is deleted once it is stored, so a replica whose lookup missed
 * just before that store leads again); {@link Excuse#PURGE} a purge of the resource that
 * ended after the first call began and began before the second; and
 * {@link Excuse#EXPIRED} a second call once the first's answer had outlived its max-age
 * (less the origin's own Age, and a second for rounding).</li>
 * </ul>
 * What each {@link FaultSchedule.Kind fault} excuses, while it is on (from its injection
 * to its healing), and no other rule: liveness (answered within the bound, none lost), a
 * write wins and no cross-talk hold through every fault.
 * <ul>
 * <li>memcached paused or killed, or a gateway paused: a read of the version from before
 * a write that overlapped the fault or the {@link RepeatedCalls#MEMCACHED_RECOVERY five
 * seconds} after it, if the read began before those five seconds ended
 * ({@link #owedInvalidations}): memcached may have missed the write's mark and delete,
 * which the gateway sends again until it takes them (operations.md, a write wins).</li>
 * <li>memcached paused or killed (any server of the pool, since which one holds a key is
 * the pool's business): a repeated origin call ({@link Excuse#MEMCACHED_FAULT}) when the
 * fault, or the {@link RepeatedCalls#MEMCACHED_RECOVERY five seconds} after it while
 * breakers stay open and connections come back, overlaps the time from the first call's
 * request to the second call (a lookup or store failed, or a killed server lost the item:
 * failures.md, the gateway goes to the origin); and a purge answered 503 (memcached
 * unavailable) then.</li>
 * <li>origin slow (answers delayed beyond the lock timeout): a call that began before an
 * earlier slow call was answered, or within a second of it (a slow call outlives the lock
 * it was made under, so calls can chain), or by a request that waited out the lock
 * timeout while the origin was slow, on a lead of any variant, or within the lock timeout
 * after such a request's call was answered (its answer, fetched without the lock, waits
 * for the lock to be stored, and the next miss may take it first), or after a slow call
 * that outlived the lock timeout whose answer no hit has served (its store gave way to
 * another replica's lead, which may have ended with nothing)
 * ({@link Excuse#ORIGIN_SLOW}): the requests waiting on a lead and the other replica go
 * themselves once the lock timeout passes (request-flow.md, misses that arrive
 * together).</li>
 * <li>origin failing (503) or refusing connections: a 502, 503 or 504 answer to a request
 * that overlapped it (the origin's error passed on, or the gateway's 502); and a repeated
 * origin call that began during it or within the lock timeout after it
 * ({@link Excuse#ORIGIN_ERROR}): an error is never shared, so each request that waited
 * for a lead that got one asks the origin itself (request-flow.md), which may answer
 * again by then.</li>
 * <li>a gateway paused ({@code SIGSTOP}, gateways in processes only): a repeated origin
 * call when the pause overlaps the time from the first call's request to the second
 * ({@link Excuse#GATEWAY_PAUSED}): a paused replica that holds a key's lock blocks it no
 * longer than the lock timeout, and then another replica asks the origin itself.</li>
 * </ul>
 */
final class HistoryChecks {

    private static final Set<String> DECLARED_STALE = Set.of("STALE", "UPDATING");

    private static final Set<FaultSchedule.Kind> ORIGIN_DOWN = EnumSet.of(FaultSchedule.Kind.ORIGIN_FAILING,
            FaultSchedule.Kind.ORIGIN_REFUSING);

    // The origin's own 503, or the gateway's 502 for an origin it cannot reach.
    private static final Set<Integer> BAD_ORIGIN = Set.of(502, 503, 504);

    private final List<Request> requests;

    private final List<Call> calls;

    private final List<Fault> faults;

    private final HistorySlices slices;

    private final List<Repeat> repeats;

    HistoryChecks(History history, List<Call> calls) {
        this.requests = history.requests().stream().sorted(Comparator.comparingLong(Request::startedAt)).toList();
        this.calls = calls;
        this.faults = history.faults();
        this.slices = new HistorySlices(requests, faults, calls);
        this.repeats = new RepeatedCalls(requests, calls, faults, slices).all();
    }

    /**
     * Requests that failed, got an unexpected status, or took longer than {@code bound}.
     */
    List<String> unanswered(Duration bound) {
        return requests.stream()
            .filter(r -> !r.cancelled())
            .filter(r -> r.failure() != null || r.endedAt() - r.startedAt() > bound.toNanos()
                    || !(expected(r) || failedByFault(r)))
            .map(r -> "not answered within " + bound + ": " + r + slices.around(r))
            .toList();
    }

    /**
     * How many answers a fault excused: an error from the origin, or a purge that
     * memcached could not take.
     */
    long answeredWithAFault() {
        return requests.stream().filter(r -> r.failure() == null && !expected(r) && failedByFault(r)).count();
    }

    private boolean failedByFault(Request request) {
        if (request.isPurge()) {
            return request.status() == 503
                    && during(FaultSchedule.Kind.MEMCACHED, request, RepeatedCalls.MEMCACHED_RECOVERY);
        }
        return BAD_ORIGIN.contains(request.status()) && during(ORIGIN_DOWN, request, 0);
    }

    private boolean during(Set<FaultSchedule.Kind> kinds, Request request, long after) {
        return faults.stream()
            .anyMatch(f -> kinds.contains(f.kind()) && f.overlaps(request.startedAt() - after, request.endedAt()));
    }

    /** How many requests their clients gave up on. */
    long cancelled() {
        return requests.stream().filter(Request::cancelled).count();
    }

    private static boolean expected(Request request) {
        return request.isPurge() ? request.status() == 200 : request.status() == 200 || request.status() == 304;
    }

    /**
     * Reads answered with a version older than a write to the same resource that was
     * answered before they began.
     */
    List<String> olderThanAFinishedWrite() {
        List<String> violations = new ArrayList<>();
        for (Request read : requests) {
            if (!read.isRead() || read.status() != 200 || DECLARED_STALE.contains(read.xCache())) {
                continue;
            }
            Request latest = null;
            for (Request write : requests) {
                if (write.isWrite() && write.originPath().equals(read.originPath()) && write.status() == 200
                        && write.endedAt() < read.startedAt()
                        && (latest == null || write.version() > latest.version())) {
                    latest = write;
                }
            }
            if (latest != null && read.version() < latest.version() && !owed(latest, read)) {
                violations.add("read older than a finished write: " + read + " after " + latest + slices.around(read));
            }
        }
        return violations;
    }

    /**
     * Reads answered with a version from before a write whose invalidation memcached may
     * have missed.
     */
    long owedInvalidations() {
        return requests.stream()
            .filter(read -> read.isRead() && read.status() == 200)
            .filter(read -> requests.stream()
                .anyMatch(write -> write.isWrite() && write.status() == 200
                        && write.originPath().equals(read.originPath()) && write.endedAt() < read.startedAt()
                        && write.version() > read.version() && owed(write, read)))
            .count();
    }

    // A write during a memcached fault, or a paused gateway, whose mark and delete
    // memcached did not take: the gateway sends them again until it does (operations.md),
    // and a read before then may get the item from before the write. That is from the
    // fault's start until the breakers let the writing gateway through again.
    private boolean owed(Request write, Request read) {
        return faults.stream()
            .anyMatch(f -> (FaultSchedule.Kind.MEMCACHED.contains(f.kind())
                    || f.kind() == FaultSchedule.Kind.GATEWAY_PAUSED)
                    && f.overlaps(write.startedAt() - RepeatedCalls.MEMCACHED_RECOVERY, write.endedAt())
                    && read.startedAt() <= f.endedAt() + RepeatedCalls.MEMCACHED_RECOVERY);
    }

    /** Answers that the origin never gave for that resource and variant. */
    List<String> crossTalk() {
        Map<String, Call> bySerial = bySerial();
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
     * Answers whose Age or freshness the origin's clock contradicts: {@link AgeChecks}.
     */
    List<String> wrongAge() {
        return new AgeChecks(requests, bySerial(),
                calls.stream().filter(call -> call.method().equals(VersionedOrigin.REVALIDATED)).toList(), slices)
            .violations();
    }

    private Map<String, Call> bySerial() {
        return calls.stream()
            .filter(call -> call.method().equals("GET"))
            .collect(Collectors.toMap(call -> Long.toString(call.serial()), call -> call));
    }

    /**
     * Origin calls beyond the first for one resource, variant and version that no
     * documented case excuses.
     */
    List<String> repeatedOriginCalls() {
        return repeats.stream().filter(repeat -> repeat.excuse() == null).map(Repeat::toString).toList();
    }

    /** How many repeated origin calls each documented case excused. */
    Map<Excuse, Long> excusedOriginCalls() {
        return repeats.stream()
            .filter(repeat -> repeat.excuse() != null)
            .collect(Collectors.groupingBy(Repeat::excuse, TreeMap::new, Collectors.counting()));
    }

}
