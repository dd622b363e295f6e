package dev.cachegateway.gateway.memcached;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.containers.GenericContainer;

/**
 * Two clients of one memcached for each test, for what differs with meta commands: one
 * that speaks them to it (once it has reported its version: until then every client uses
 * the plain commands), and one with them switched off; and a raw text client, the
 * memcached flushed. Registered with {@code @RegisterExtension} on a test whose
 * {@code @Container} runs {@code memcached}.
 */
public final class BothProtocols implements BeforeEachCallback, AfterEachCallback {

    private final GenericContainer<?> memcached;

    private ReactiveMemcached withMeta;

    private ReactiveMemcached withoutMeta;

    private MemcachedTextClient raw;

    public BothProtocols(GenericContainer<?> memcached) {
        this.memcached = memcached;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        String address = MemcachedContainer.address(memcached);
        withMeta = TestMemcached.connect(address, Duration.ofSeconds(2), settings -> {
        });
        withoutMeta = TestMemcached.connect(address, Duration.ofSeconds(2),
                settings -> settings.setMetaCommands(false));
        await("the server's version").atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(10))
            .until(() -> withMeta.servers().get(0).metaCommands());
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        withMeta.close();
        withoutMeta.close();
        raw.close();
    }

    /** The client that speaks meta commands. */
    public ReactiveMemcached withMeta() {
        return withMeta;
    }

    /** The client that does not. */
    public ReactiveMemcached withoutMeta() {
        return withoutMeta;
    }

    /** memcached's text protocol, as nginx or a test reads it. */
    public MemcachedTextClient raw() {
        return raw;
    }

}
