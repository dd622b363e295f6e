package dev.cachegateway.gateway.memcached.ring;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.cachegateway.gateway.digest.Md5;
import dev.cachegateway.gateway.memcached.pool.ServerAddress;

/**
 * libmemcached's weighted Ketama ({@code MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED}), which
 * PHP's {@code OPT_LIBKETAMA_COMPATIBLE}, pylibmc and most other clients use: each server
 * gets 160 points in all, scaled by its share of the total weight, four per MD5 of
 * {@code "<name>-<i>"}, where the name is the host as configured, with {@code :port} only
 * when the port is not 11211. A key's hash is the first four bytes of its MD5,
 * little-endian.
 */
public final class LibmemcachedKetama {

    private static final int POINTS_PER_SERVER = 160;

    private LibmemcachedKetama() {
    }

    public static HashRing ring(List<ServerAddress> servers) {
        HashRing.Builder ring = new HashRing.Builder(key -> word(Md5.digest(key), 0));
        long totalWeight = servers.stream().mapToLong(ServerAddress::weight).sum();
        for (int index = 0; index < servers.size(); index++) {
            ServerAddress server = servers.get(index);
            for (int hash = 0; hash < pointsPerServer(server.weight(), totalWeight, servers.size()) / 4; hash++) {
                byte[] digest = Md5.digest((server.ketamaName() + "-" + hash).getBytes(StandardCharsets.UTF_8));
                for (int word = 0; word < 4; word++) {
                    ring.add(word(digest, word), index);
                }
            }
        }
        return ring.build();
    }

    // In float, as libmemcached computes it: with three servers of equal weight, 1/3 of
    // 160 rounds to 160 exactly, and doing it in double would give another count and
    // other points.
    public static int pointsPerServer(int weight, long totalWeight, int servers) {
        float share = (float) weight / (float) totalWeight;
        float points = share * POINTS_PER_SERVER / 4 * (float) servers + 0.0000000001F;
        return (int) Math.floor(points) * 4;
    }

    private static long word(byte[] digest, int word) {
        int at = word * 4;
        return ((long) (digest[at + 3] & 0xFF) << 24) | ((digest[at + 2] & 0xFF) << 16) | ((digest[at + 1] & 0xFF) << 8)
                | (digest[at] & 0xFF);
    }

}
