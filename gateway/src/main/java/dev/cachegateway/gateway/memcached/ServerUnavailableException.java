package dev.cachegateway.gateway.memcached;

/** The server of a key has no address yet: its name has not resolved since the gateway started. */
public class ServerUnavailableException extends IllegalStateException {

    ServerUnavailableException(ServerAddress server) {
        super("memcached server " + server + " does not resolve yet");
    }
}
