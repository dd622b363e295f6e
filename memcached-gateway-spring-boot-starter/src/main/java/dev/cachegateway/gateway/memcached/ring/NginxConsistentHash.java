package dev.cachegateway.gateway.memcached.ring;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;

import dev.cachegateway.gateway.memcached.pool.ServerAddress;

/**
 * nginx's {@code upstream { hash $memcached_key consistent; }}
 * (ngx_http_upstream_hash_module): each server gets 160 points per unit of weight,
 * chained CRC32s of {@code host \0 port} followed by the previous point's four bytes,
 * little-endian; a key's hash is its CRC32. The server's name is as written in the list
 * ({@code host:port}), which must be how nginx's {@code server} lines write it.
 */
public final class NginxConsistentHash {

    private static final int POINTS_PER_WEIGHT = 160;

    private NginxConsistentHash() {
    }

    public static HashRing ring(List<ServerAddress> servers) {
        HashRing.Builder ring = new HashRing.Builder(NginxConsistentHash::crc32);
        for (int index = 0; index < servers.size(); index++) {
            ServerAddress server = servers.get(index);
            byte[] base = hostNulPort(server.text());
            byte[] input = new byte[base.length + 4];
            System.arraycopy(base, 0, input, 0, base.length);
            long previous = 0;
            for (int point = 0; point < server.weight() * POINTS_PER_WEIGHT; point++) {
                for (int i = 0; i < 4; i++) {
                    input[base.length + i] = (byte) (previous >>> (8 * i));
                }
                previous = crc32(input);
                ring.add(previous, index);
            }
        }
        return ring.build();
    }

    // nginx splits at the last ':' only when digits alone follow it; otherwise the whole
    // name is the host.
    private static byte[] hostNulPort(String name) {
        int colon = name.lastIndexOf(':');
        boolean hasPort = colon >= 0 && name.substring(colon + 1).chars().allMatch(Character::isDigit);
        String host = hasPort ? name.substring(0, colon) : name;
        String port = hasPort ? name.substring(colon + 1) : "";
        return (host + "\0" + port).getBytes(StandardCharsets.UTF_8);
    }

    private static long crc32(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes);
        return crc.getValue();
    }

}
