package dev.cachegateway.demo.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.cachegateway.demo.history.History.Fault;
import dev.cachegateway.demo.history.History.Request;
import dev.cachegateway.demo.history.VersionedOrigin.Call;
import org.jspecify.annotations.Nullable;

/**
 * The origin calls beyond the first for one resource, variant and version, each with the
 * documented case that excuses it, if one does. {@link HistoryChecks} says what each
 * excuse stands for.
 */
final class RepeatedCalls {

    /** Why a repeated call is expected, in the order they are tried. */
    enum Excuse {

        WRITE, VARIANT, PURGE, EXPIRED, MEMCACHED_FAULT, ORIGIN_SLOW, ORIGIN_ERROR, GATEWAY_PAUSED

    }

    /** A call that asked the origin for what {@code first} had fetched already. */
    record Repeat(String what, int nth, Call first, Call again, @Nullable Excuse excuse, String slice) {

        @Override
        public String toString() {
            return String.format("origin call %d for %s: s%d at %.1f ms, s%d at %.1f ms%s%s", nth, what, first.serial(),
                    first.startedAt() / 1e6 % 1e6, again.serial(), again.startedAt() / 1e6 % 1e6,
                    excuse != null ? " (" + excuse + ")" : "", slice);
        }
    }

    /**
     * How long after a memcached fault the gateways may still go without it: breakers
     * open, reconnecting.
     */
    static final long MEMCACHED_RECOVERY = Duration.ofSeconds(5).toNanos();

    /** How long before a fetch a tag purge may have begun and still drop its store. */
    static final long TAG_PURGE_CLOCK_SKEW = Duration.ofMillis(100).toNanos();

    private static final long LOCK_TIMEOUT = TwoGateways.LOCK_TIMEOUT.toNanos();

    private static final Set<FaultSchedule.Kind> ORIGIN_DOWN = EnumSet.of(FaultSchedule.Kind.ORIGIN_FAILING,
            FaultSchedule.Kind.ORIGIN_REFUSING);

    private final List<Request> requests;

    private final List<Call> calls;

    private final List<Fault> faults;

    private final HistorySlices slices;

    private final CallLeads leads;

    private final SlowOriginExcuse slowOrigin;

    RepeatedCalls(List<Request> requests, List<Call> calls, List<Fault> faults, HistorySlices slices) {
        this.requests = requests;
        this.calls = calls;
        this.faults = faults;
        this.slices = slices;
        this.leads = new CallLeads(requests);
        this.slowOrigin = new SlowOriginExcuse(faults, leads);
    }

    List<Repeat> all() {
        Map<String, List<Call>> byVersion = calls.stream()
            .filter(call -> call.method().equals("GET") || call.method().equals(VersionedOrigin.REVALIDATED))
            .sorted(Comparator.comparingLong(Call::startedAt))
            .collect(Collectors.groupingBy(call -> call.path() + " " + call.language() + " v" + call.version()));
        List<Repeat> found = new ArrayList<>();
        byVersion.forEach((what, sameVersion) -> {
            for (int i = 1; i < sameVersion.size(); i++) {
                Call first = sameVersion.get(0);
                Call again = sameVersion.get(i);
                found.add(new Repeat(what, i + 1, first, again, excuse(first, again, sameVersion.subList(0, i)),
                        slices.around(first.path(), first.startedAt())
                                + slices.around(again.path(), again.startedAt())));
            }
        });
        return found;
    }

    private @Nullable Excuse excuse(Call first, Call again, List<Call> earlier) {
        Optional<Request> lead = leads.of(first);
        // Two calls that began together may have been asked in either order: the earlier
        // lead counts.
        long firstAsked = Math.min(lead.map(Request::startedAt).orElse(first.startedAt()),
                leads.of(again).map(Request::startedAt).orElse(again.startedAt()));
        if (anyOf(first.path(), r -> r.isWrite() && r.endedAt() > firstAsked && r.startedAt() < again.startedAt())) {
            return Excuse.WRITE;
        }
        if (first.path().contains(VersionedOrigin.VARYING) && lead.isPresent()
                && leads.answeredFirst(again).map(other -> other.gateway() != lead.get().gateway()).orElse(false)) {
            return Excuse.VARIANT;
        }
        // A purge while the first lead was on its way deletes its lock, so another
        // replica may lead again; and a store is dropped for a tag purge that began up
        // to the replicas' clock skew (100 ms) before its fetch (docs/operations.md).
        if (anyOf(first.path(), r -> r.isPurge() && r.endedAt() >= firstAsked - TAG_PURGE_CLOCK_SKEW
                && r.startedAt() <= again.startedAt())) {
            return Excuse.PURGE;
        }
        long freshFor = VersionedOrigin.maxAge(first.path()) - VersionedOrigin.upstreamAge(first.path()) - 1;
        if (again.startedAt() >= first.answeredAt() + Duration.ofSeconds(freshFor).toNanos()) {
            return Excuse.EXPIRED;
        }
        if (faults.stream()
            .anyMatch(f -> FaultSchedule.Kind.MEMCACHED.contains(f.kind())
                    && f.overlaps(firstAsked - MEMCACHED_RECOVERY, again.startedAt()))) {
            return Excuse.MEMCACHED_FAULT;
        }
        if (slowOrigin.excuses(first, again, earlier, lead)) {
            return Excuse.ORIGIN_SLOW;
        }
        // The waiters of a lead whose answer was an error may not share it: each asks the
        // origin, which may be back by then. They waited at most the lock timeout.
        if (faults.stream()
            .anyMatch(f -> ORIGIN_DOWN.contains(f.kind())
                    && f.overlaps(again.startedAt() - LOCK_TIMEOUT, again.startedAt()))) {
            return Excuse.ORIGIN_ERROR;
        }
        if (faults.stream()
            .anyMatch(
                    f -> f.kind() == FaultSchedule.Kind.GATEWAY_PAUSED && f.overlaps(firstAsked, again.startedAt()))) {
            return Excuse.GATEWAY_PAUSED;
        }
        return null;
    }

    private boolean anyOf(String originPath, Predicate<Request> test) {
        return requests.stream().anyMatch(r -> r.originPath().equals(originPath) && test.test(r));
    }

}
