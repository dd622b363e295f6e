package dev.cachegateway.gateway.memcached.operation;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;

/**
 * Where what follows a memcached operation runs: back on the Netty event loop that
 * started it, where the request it serves lives, or on a few threads of our own when a
 * thread outside Netty started it. spymemcached's one I/O thread only hands completions
 * over, so a slow continuation never holds up memcached's traffic; and a request's
 * continuation hops once, to its own loop, instead of twice (I/O thread, a pool, then the
 * loop for the write).
 */
public final class CompletionThreads implements AutoCloseable {

    private final ExecutorService others;

    private final Executor othersOrHere;

    public CompletionThreads(ExecutorService others) {
        this.others = others;
        this.othersOrHere = task -> {
            try {
                others.execute(task);
            }
            catch (RejectedExecutionException shut) {
                // They stop with the client, before its last operations end: a task
                // dropped here would leave its request waiting forever, so the thread
                // that has it runs it.
                task.run();
            }
        };
    }

    /**
     * The executor for an operation started on the calling thread. Never refuses a task.
     */
    public Executor ofCaller() {
        // Netty's own record of the event loop that runs this thread; null on any other
        // thread.
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        return loop == null ? othersOrHere : task -> {
            try {
                loop.execute(task);
            }
            catch (RejectedExecutionException shuttingDown) {
                // The loop stops with the server; what it leaves still has a request to
                // finish or fail.
                othersOrHere.execute(task);
            }
        };
    }

    @Override
    public void close() {
        others.shutdown();
    }

}
