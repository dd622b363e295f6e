package dev.cachegateway.demo.support;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Runs a request and, when it fails, fails with what every thread of this JVM was doing:
 * a request that hangs once in many runs names the thread it waited on in the report.
 */
public final class ThreadDump {

    private static final int FRAMES = 24;

    private ThreadDump() {
    }

    public static <T> T onFailure(Supplier<T> request) {
        try {
            return request.get();
        }
        catch (RuntimeException | AssertionError failure) {
            throw new AssertionError(failure.getMessage() + "\nThreads at the failure:\n" + ofAllThreads(), failure);
        }
    }

    private static String ofAllThreads() {
        return Arrays.stream(ManagementFactory.getThreadMXBean().dumpAllThreads(true, true))
            .map(ThreadDump::describe)
            .collect(Collectors.joining("\n"));
    }

    private static String describe(ThreadInfo thread) {
        String frames = Arrays.stream(thread.getStackTrace())
            .limit(FRAMES)
            .map(frame -> "\tat " + frame)
            .collect(Collectors.joining("\n"));
        String waitingOn = (thread.getLockName() != null) ? " on " + thread.getLockName() : "";
        return "\"" + thread.getThreadName() + "\" " + thread.getThreadState() + waitingOn + "\n" + frames;
    }

}
