package dev.cachegateway.demo.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ThreadDumpTests {

    @Test
    void failsWithTheFailureAndEveryThreadsStack() {
        assertThatThrownBy(() -> ThreadDump.onFailure(() -> {
            throw new IllegalStateException("Timeout on blocking read");
        })).isInstanceOf(AssertionError.class)
            .hasMessageStartingWith("Timeout on blocking read")
            .hasMessageContaining("\"" + Thread.currentThread().getName() + "\" RUNNABLE")
            .hasMessageContaining(ThreadDumpTests.class.getName() + ".failsWithTheFailureAndEveryThreadsStack(")
            .hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void returnsWhatASuccessfulRequestReturns() {
        assertThat(ThreadDump.onFailure(() -> "answered")).isEqualTo("answered");
    }

}
