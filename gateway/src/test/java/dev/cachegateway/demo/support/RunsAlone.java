package dev.cachegateway.demo.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class whose subject is a deadline under load: a memcached timeout told from the
 * gateway's own delay, a breaker that opens on timeouts, the history checker's liveness
 * bounds. The surefire plugin's default execution leaves these out and a second one runs
 * them after the others, so that they can run alone should the others run in several JVMs
 * at once: another JVM's work would starve this one now and then, and the gateway rightly
 * counts that as its own delay, not memcached's.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(RunsAlone.TAG)
public @interface RunsAlone {

    /** The tag that gateway/pom.xml's executions select by. */
    String TAG = "runs-alone";

}
