package dev.cachegateway.gateway.memcached;

import dev.cachegateway.gateway.memcached.pool.ServerAddress;

/**
 * The server of a key has no address yet: its name has not resolved since the gateway
 * started.
 */
public class ServerUnavailableException extends IllegalStateException {

    public ServerUnavailableException(ServerAddress server) {
        super("memcached server " + server + " does not resolve yet");
    }

}
