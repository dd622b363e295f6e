package dev.cachegateway.gateway.memcached.pool;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * Turns a configured server into the address to connect to now. The pool asks again every
 * few seconds, so a server that moves to another address is followed; tests bring their
 * own to move a server without DNS.
 */
@FunctionalInterface
public interface ServerResolver {

    /**
     * The system's resolver. The JVM's own DNS cache must be short for this to see a
     * move: see JvmSettings.
     */
    ServerResolver DNS = server -> new InetSocketAddress(InetAddress.getByName(server.host()), server.port());

    /**
     * The address of {@code server}; fails if its name does not resolve. Called off the
     * event loops: it blocks.
     */
    InetSocketAddress resolve(ServerAddress server) throws IOException;

}
