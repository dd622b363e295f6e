package dev.cachegateway.gateway.memcached;

import java.util.List;

/** How keys are placed on several memcached servers: {@code memcached.ring}. */
public enum RingType {

    /** libmemcached's weighted Ketama, shared with PHP, pylibmc and most other clients. */
    LIBMEMCACHED {
        @Override
        HashRing build(List<ServerAddress> servers) {
            return LibmemcachedKetama.ring(servers);
        }
    },

    /** nginx's {@code hash $memcached_key consistent}, for a pool shared with nginx's {@code memcached_pass}. */
    NGINX {
        @Override
        HashRing build(List<ServerAddress> servers) {
            return NginxConsistentHash.ring(servers);
        }
    };

    abstract HashRing build(List<ServerAddress> servers);
}
