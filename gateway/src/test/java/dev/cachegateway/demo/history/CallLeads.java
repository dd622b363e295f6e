package dev.cachegateway.demo.history;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.cachegateway.demo.history.History.Request;
import dev.cachegateway.demo.history.VersionedOrigin.Call;

/** Which request of a history led an origin call, and who got its answer. */
final class CallLeads {

    private static final long LOCK_TIMEOUT = TwoGateways.LOCK_TIMEOUT.toNanos();

    private final List<Request> requests;

    CallLeads(List<Request> requests) {
        this.requests = requests;
    }

    /**
     * The request that led the call: one its answer reached, else one whose client left.
     */
    Optional<Request> of(Call call) {
        return answeredFirst(call).or(() -> leftItsLead(call));
    }

    /**
     * The first request that got the call's answer, if it began before the call did: one
     * that began after it joined a lead already on its way.
     */
    Optional<Request> answeredFirst(Call call) {
        return requests.stream()
            .filter(r -> answered(r, call) && r.startedAt() <= call.startedAt())
            .min(Comparator.comparingLong(Request::startedAt));
    }

    /**
     * Whether a request that began before {@code until} got the call's answer from
     * memcached.
     */
    boolean servedFromMemcached(Call call, long until) {
        return requests.stream().anyMatch(r -> "HIT".equals(r.xCache()) && answered(r, call) && r.startedAt() < until);
    }

    // A call whose answer no client got was led by a request whose client left before it
    // came (the lead goes on, and its store may be fenced out by a write it began
    // before): the last such request for it that began first. A lead goes on for the
    // lock timeout after its client left, and may ask the origin until then.
    private Optional<Request> leftItsLead(Call call) {
        return requests.stream()
            .filter(r -> r.cancelled() && r.originPath().equals(call.path()) && sameVariant(r, call)
                    && r.startedAt() < call.startedAt() && call.startedAt() - r.endedAt() < LOCK_TIMEOUT)
            .max(Comparator.comparingLong(Request::startedAt));
    }

    private static boolean answered(Request request, Call call) {
        return Long.toString(call.serial()).equals(request.field("serial"));
    }

    private static boolean sameVariant(Request request, Call call) {
        return Objects.equals(String.valueOf(request.language()), call.language());
    }

}
