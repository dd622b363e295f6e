package dev.cachegateway.gateway.memcached.pool;

/**
 * One memcached server as configured: {@code host}, {@code host:port} or
 * {@code [v6]:port}, optionally followed by a space and a weight, as libmemcached's
 * server lists write it ({@code cache-1:11211 2}). The ring is built from the name as
 * written, never from a resolved address, so every client that reads the same list places
 * keys alike however the names resolve.
 *
 * @param host the host name or IP literal, as written (without the brackets of an IPv6
 * literal)
 * @param port the port; 11211 when none is written
 * @param weight the server's share of the ring relative to the others; 1 when none is
 * written
 * @param text the server as written, without its weight: nginx's {@code server} name
 */
public record ServerAddress(String host, int port, int weight, String text) {

    /** memcached's port, which libmemcached leaves out of a server's ring name. */
    public static final int DEFAULT_PORT = 11211;

    public ServerAddress {
        if (host.isEmpty() || port < 1 || port > 65_535 || weight < 1) {
            throw new IllegalArgumentException("Not a memcached server: '" + text + "'");
        }
    }

    /**
     * Parses one entry of {@code memcached.servers}; a malformed entry fails at start-up
     * with what was written.
     */
    public static ServerAddress parse(String entry) {
        String trimmed = entry.trim();
        String[] parts = trimmed.split("\\s+");
        if (parts.length > 2 || parts[0].isEmpty()) {
            throw new IllegalArgumentException("Not a memcached server: '" + entry + "'; write host:port [weight]");
        }
        String address = parts[0];
        try {
            int weight = parts.length == 2 ? Integer.parseInt(parts[1]) : 1;
            if (address.startsWith("[")) {
                int close = address.indexOf(']');
                String port = address.substring(close + 1);
                return new ServerAddress(address.substring(1, close),
                        port.isEmpty() ? DEFAULT_PORT : Integer.parseInt(port.substring(1)), weight, address);
            }
            int colon = address.lastIndexOf(':');
            if (colon < 0) {
                return new ServerAddress(address, DEFAULT_PORT, weight, address);
            }
            return new ServerAddress(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)),
                    weight, address);
        }
        catch (RuntimeException ex) {
            throw new IllegalArgumentException("Not a memcached server: '" + entry + "'; write host:port [weight]", ex);
        }
    }

    /**
     * libmemcached's name for this server on the ring: the host, with the port only when
     * it is not 11211.
     */
    public String ketamaName() {
        return port == DEFAULT_PORT ? host : host + ":" + port;
    }

    @Override
    public String toString() {
        return text;
    }
}
