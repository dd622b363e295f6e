package dev.cachegateway.demo.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

/**
 * A test class that runs while no other does. The gateway's tests run in three JVMs at
 * once (the surefire plugin's default execution), since most of their time is spent
 * waiting on a timeout or a container. A class whose subject is a deadline under load
 * runs in the plugin's second execution, alone: a memcached timeout told from the
 * gateway's own delay, a breaker that opens on timeouts, the history checker's liveness
 * bounds. The other JVMs' work would starve this one now and then, and the gateway
 * rightly counts that as its own delay, not memcached's.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(RunsAlone.TAG)
public @interface RunsAlone {

    /** The tag that gateway/pom.xml's executions select by. */
    String TAG = "runs-alone";

}
