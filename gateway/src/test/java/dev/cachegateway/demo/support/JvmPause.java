package dev.cachegateway.demo.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Stops this JVM and starts it again, as a long GC pause or a {@code SIGSTOP} does: every
 * thread at once.
 */
public final class JvmPause {

    private JvmPause() {
    }

    // A child process does it; the JVM cannot do either to itself.
    public static void stopFor(Duration stopped) throws Exception {
        long pid = ProcessHandle.current().pid();
        double seconds = stopped.toMillis() / 1000.0;
        Process child = new ProcessBuilder("sh", "-c",
                "kill -STOP " + pid + "; sleep " + seconds + "; kill -CONT " + pid)
            .start();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isZero();
    }

}
