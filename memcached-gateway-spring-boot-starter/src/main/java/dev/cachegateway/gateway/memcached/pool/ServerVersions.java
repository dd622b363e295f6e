package dev.cachegateway.gateway.memcached.pool;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.cachegateway.gateway.memcached.protocol.meta.MetaCommands;
import org.jspecify.annotations.Nullable;

/**
 * For each configured server, the version its current connection reported, and so whether
 * it takes meta commands. Each connection, first or after a reconnect, starts knowing
 * nothing, since a server can come back as an older one; until its answer arrives its
 * keys are looked up with {@code get}, which every version has. An answer is kept only if
 * it belongs to the connection still current, so a late answer from a lost one changes
 * nothing.
 */
final class ServerVersions {

    private record Known(long connection, @Nullable String version, boolean metaCommands) {
    }

    private final AtomicReferenceArray<Known> servers;

    private final AtomicLong connections = new AtomicLong();

    ServerVersions(int servers) {
        this.servers = new AtomicReferenceArray<>(servers);
        for (int index = 0; index < servers; index++) {
            this.servers.set(index, new Known(0, null, false));
        }
    }

    /**
     * A new connection to the server at {@code index}; returns the token its version
     * answer must bring.
     */
    long connected(int index) {
        long connection = connections.incrementAndGet();
        servers.set(index, new Known(connection, null, false));
        return connection;
    }

    /**
     * The connection to the server at {@code index} is gone; any answer still on its way
     * is for nobody.
     */
    void lost(int index) {
        servers.set(index, new Known(connections.incrementAndGet(), null, false));
    }

    /**
     * The server answered {@code version} on {@code connection}; kept if that connection
     * is still current.
     */
    void answered(int index, long connection, String version) {
        servers.updateAndGet(index, known -> known.connection() != connection ? known
                : new Known(connection, version, MetaCommands.supportedBy(version)));
    }

    int size() {
        return servers.length();
    }

    boolean metaCommands(int index) {
        return servers.get(index).metaCommands();
    }

    @Nullable String version(int index) {
        return servers.get(index).version();
    }

}
