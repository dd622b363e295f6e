package dev.cachegateway.gateway.warmup;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** How long, and how hard, the gateway warms itself up before its readiness says UP. */
@ConfigurationProperties("memcached.warm-up")
public class WarmUpProperties {

    /**
     * How long the gateway sends itself requests before it says it is ready, at most: it
     * stops sooner once they run steady and the JIT compiler is nearly idle; 0 (the
     * default) is off.
     */
    private Duration duration = Duration.ZERO;

    /**
     * How soon after the JVM started the gateway should say ready, at the latest; 0 (the
     * default) sets no bound. A start-up that took longer than usual leaves the warm-up
     * less of it, so that readiness still comes about on time; one that took all of it
     * skips the warm-up.
     */
    private Duration readyWithin = Duration.ZERO;

    /**
     * How many of those requests are in flight at once. Few: the JIT compiler needs most
     * of the CPU, and what it compiles depends on which paths run, not on how often.
     */
    private int concurrency = 4;

    /**
     * Paths like those clients ask for, such as /api/v1/comments/1: the warm-up asks for
     * each too, through the configured routes' own predicates in their order, but to its
     * own backend and keys, so that the paths real requests take are warm as well; none
     * by default.
     */
    private List<String> paths = new ArrayList<>();

    public Duration getDuration() {
        return duration;
    }

    public void setDuration(Duration duration) {
        this.duration = duration;
    }

    /**
     * How long to warm up, the JVM having been up for {@code uptime}: the duration, cut
     * to what is left of {@code ready-within}.
     */
    Duration lengthAfter(Duration uptime) {
        if (readyWithin.isZero() || readyWithin.isNegative()) {
            return duration;
        }
        Duration left = readyWithin.minus(uptime);
        return left.isNegative() ? Duration.ZERO : left.compareTo(duration) < 0 ? left : duration;
    }

    public Duration getReadyWithin() {
        return readyWithin;
    }

    public void setReadyWithin(Duration readyWithin) {
        this.readyWithin = readyWithin;
    }

    public int getConcurrency() {
        return concurrency;
    }

    public void setConcurrency(int concurrency) {
        this.concurrency = concurrency;
    }

    public List<String> getPaths() {
        return paths;
    }

    public void setPaths(List<String> paths) {
        this.paths = paths;
    }

}
