package dev.cachegateway.gateway.memcached.ring;

import java.util.List;

import dev.cachegateway.gateway.memcached.pool.ServerAddress;

/** How keys are placed on several memcached servers: {@code memcached.ring}. */
public enum RingType {

    /**
     * libmemcached's weighted Ketama, shared with PHP, pylibmc and most other clients.
     */
    LIBMEMCACHED {
        @Override
        public HashRing build(List<ServerAddress> servers) {
            return LibmemcachedKetama.ring(servers);
        }
    },

    /**
     * nginx's {@code hash $memcached_key consistent}, for a pool shared with nginx's
     * {@code memcached_pass}.
     */
    NGINX {
        @Override
        public HashRing build(List<ServerAddress> servers) {
            return NginxConsistentHash.ring(servers);
        }
    };

    public abstract HashRing build(List<ServerAddress> servers);

}
