package dev.cachegateway.demo.history;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.cachegateway.demo.history.History.Fault;
import dev.cachegateway.demo.history.History.Request;
import dev.cachegateway.demo.history.VersionedOrigin.Call;

/**
 * Whether an origin slowed down beyond the lock timeout excuses a repeated call: the lock
 * outlived by a slow call lets others lead (request-flow.md, misses that arrive
 * together).
 */
final class SlowOriginExcuse {

    private static final long LOCK_TIMEOUT = TwoGateways.LOCK_TIMEOUT.toNanos();

    // A request that waited out the lock timeout on a slow call may reach the origin just
    // after that call ended.
    private static final long SLOW_SLACK = Duration.ofSeconds(1).toNanos();

    private final List<Fault> faults;

    private final CallLeads leads;

    SlowOriginExcuse(List<Fault> faults, CallLeads leads) {
        this.faults = faults;
        this.leads = leads;
    }

    /**
     * Whether it excuses {@code again}, a call for what {@code first} fetched, after the
     * calls {@code earlier} for it; {@code lead} led {@code first}, if known.
     */
    boolean excuses(Call first, Call again, List<Call> earlier, Optional<Request> lead) {
        // Any earlier call, not only the first: a slow call outlives the lock it was made
        // under, so the next one may be made under a lock of its own while it runs, and
        // so may the one after that.
        if (earlier.stream()
            .anyMatch(before -> again.startedAt() <= before.answeredAt() + SLOW_SLACK && slow(before))) {
            return true;
        }
        // A slow call that outlived the lock timeout lost its lock: another replica's
        // lead may have taken it, and then that lead's answer, not this one's, is stored
        // (request-flow.md); if that lead ended with nothing (its client left, and it was
        // cancelled after the lock timeout), nothing is. The next request asks again,
        // however much later, unless a hit showed the slow call's answer stored.
        if (earlier.stream()
            .anyMatch(before -> before.answeredAt() - before.startedAt() >= LOCK_TIMEOUT
                    && !leads.servedFromMemcached(before, again.startedAt()) && slow(before))) {
            return true;
        }
        // A request that waited out the lock timeout on a slow lead asks the origin
        // itself, whichever variant that lead's answer turned out to be: a varying
        // answer's variant is known only once it came. Its answer, fetched without the
        // lock, is stored only once it holds the lock, which it waits for up to the lock
        // timeout: a lock that comes free as its slow holder's expires may be taken first
        // by the next miss, which asks again.
        return waitedOutASlowLead(leads.answeredFirst(again), again)
                || waitedOutASlowLead(lead, first) && again.startedAt() <= first.answeredAt() + LOCK_TIMEOUT;
    }

    private boolean slow(Call call) {
        return slowBetween(call.startedAt(), call.answeredAt());
    }

    // Whether the call's lead waited out the lock timeout before it, on a lead slowed
    // down by the origin.
    private boolean waitedOutASlowLead(Optional<Request> lead, Call call) {
        return lead.isPresent() && call.startedAt() - lead.get().startedAt() >= LOCK_TIMEOUT
                && slowBetween(lead.get().startedAt(), lead.get().startedAt() + LOCK_TIMEOUT);
    }

    private boolean slowBetween(long from, long to) {
        return faults.stream().anyMatch(f -> f.kind() == FaultSchedule.Kind.ORIGIN_SLOW && f.overlaps(from, to));
    }

}
