package dev.cachegateway.gateway.memcached.protocol.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.OperationStatus;
import org.junit.jupiter.api.Test;

/**
 * A meta command is one line, {@code verb key flags} and CR LF, its key in UTF-8 as
 * spymemcached writes a key.
 */
class MetaCommandLineTests {

    @Test
    void aGetIsOneLineWithItsFlagsAndRecacheThreshold() {
        assertThat(line(new MetaGetOperation("/api/v1/comments/1", 30, ignored())))
            .isEqualTo("mg /api/v1/comments/1 v f t R30\r\n");
        assertThat(line(new MetaGetOperation("/api/v1/comments/1", 0, ignored())))
            .isEqualTo("mg /api/v1/comments/1 v f t\r\n");
    }

    @Test
    void aKeyBeyondAsciiIsSentInUtf8() {
        assertThat(line(MetaDeleteOperation.invalidate("/k/é€", 5, ignored()))).isEqualTo("md /k/é€ I T5\r\n");
    }

    private static String line(Operation operation) {
        operation.initialize();
        ByteBuffer sent = operation.getBuffer();
        byte[] bytes = new byte[sent.remaining()];
        sent.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    // Nothing is answered: only the command is read.
    private static <T> MetaCallback<T> ignored() {
        return new MetaCallback<>() {
            @Override
            public void gotResult(T result) {
            }

            @Override
            public void receivedStatus(OperationStatus status) {
            }

            @Override
            public void complete() {
            }
        };
    }

}
