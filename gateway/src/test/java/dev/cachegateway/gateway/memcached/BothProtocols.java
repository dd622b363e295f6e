package dev.cachegateway.gateway.memcached;

import static org.awaitility.Awaitility.await;

import java.time.Duration;

/**
 * Two clients of one memcached, for tests of what differs with meta commands: one that
 * speaks them to it (once it has reported its version: until then every client uses the
 * plain commands), and one with them switched off.
 *
 * @param withMeta the client that speaks meta commands
 * @param withoutMeta the client that does not
 */
public record BothProtocols(ReactiveMemcached withMeta, ReactiveMemcached withoutMeta) implements AutoCloseable {

    /** Both clients of the memcached at host:port. */
    public static BothProtocols connect(String address) {
        ReactiveMemcached withMeta = TestMemcached.connect(address, Duration.ofSeconds(2), settings -> {
        });
        ReactiveMemcached withoutMeta = TestMemcached.connect(address, Duration.ofSeconds(2),
                settings -> settings.setMetaCommands(false));
        await("the server's version").atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(10))
            .until(() -> withMeta.servers().get(0).metaCommands());
        return new BothProtocols(withMeta, withoutMeta);
    }

    @Override
    public void close() throws Exception {
        withMeta.close();
        withoutMeta.close();
    }

}
