package dev.cachegateway.demo.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cachegateway.demo.history.History.Request;
import dev.cachegateway.demo.history.VersionedOrigin.Call;

/**
 * The age of every answer against the origin's clock: its {@code Age} never below the
 * true age (the origin's own {@code Age} plus the whole seconds since it answered that
 * serial, or since it last revalidated its version with a 304), never above the origin's
 * {@code Age} plus the time since the origin call began, rounded up, and a second
 * (counted twice would show, since the origin sends an {@code Age} of its own for some
 * resources); and an answer not declared STALE or UPDATING never older than its max-age
 * (a second over, for memcached's expiry in whole seconds). The body route sends no
 * {@code Age}, as nginx's does not, so it is judged for freshness only; on the
 * whole-answer route an answer without one counts as age 0.
 */
final class AgeChecks {

    private static final Set<String> DECLARED_STALE = Set.of("STALE", "UPDATING");

    private static final long SECOND = Duration.ofSeconds(1).toNanos();

    private final List<Request> requests;

    private final Map<String, Call> bySerial;

    private final List<Call> revalidations;

    private final HistorySlices slices;

    AgeChecks(List<Request> requests, Map<String, Call> bySerial, List<Call> revalidations, HistorySlices slices) {
        this.requests = requests;
        this.bySerial = bySerial;
        this.revalidations = revalidations;
        this.slices = slices;
    }

    List<String> violations() {
        List<String> violations = new ArrayList<>();
        for (Request read : requests) {
            Call call = read.isRead() && read.status() == 200 ? bySerial.get(read.field("serial")) : null;
            if (call == null) {
                continue;
            }
            int upstream = VersionedOrigin.upstreamAge(call.path());
            long atLeast = upstream + Math.max(0, read.startedAt() - validatedAt(call, read)) / SECOND;
            long atMost = upstream + (read.endedAt() - call.startedAt() + SECOND - 1) / SECOND + 1;
            boolean whole = !read.path().equals(read.originPath());
            if (whole || read.age() != null) {
                long age = read.age() != null ? Long.parseLong(read.age()) : 0;
                if (age < atLeast || age > atMost) {
                    violations.add(String.format("Age %d outside %d..%d: %s origin: %s%s", age, atLeast, atMost, read,
                            call, slices.around(read)));
                }
            }
            if (!DECLARED_STALE.contains(read.xCache()) && atLeast > VersionedOrigin.maxAge(call.path()) + 1) {
                violations.add(String.format("fresh answer %d s old, past its max-age %d: %s%s", atLeast,
                        VersionedOrigin.maxAge(call.path()), read, slices.around(read)));
            }
        }
        return violations;
    }

    // A 304 makes a stored answer as young as the 304 (RFC 9111 4.3.4): the latest one
    // for its version and variant asked before the read ended, the read's own included
    // (the origin notes its answer only after sending it, so the read may end first),
    // whichever replica's copy it refreshed, so that the lower bound stays one.
    private long validatedAt(Call call, Request read) {
        return revalidations.stream()
            .filter(again -> again.path().equals(call.path()) && again.version() == call.version()
                    && again.language().equals(call.language()))
            .filter(again -> again.startedAt() < read.endedAt() && again.answeredAt() > call.answeredAt())
            .mapToLong(Call::answeredAt)
            .max()
            .orElse(call.answeredAt());
    }

}
