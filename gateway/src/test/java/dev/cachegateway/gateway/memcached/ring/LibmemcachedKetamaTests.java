package dev.cachegateway.gateway.memcached.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import dev.cachegateway.gateway.memcached.pool.ServerAddress;
import org.junit.jupiter.api.Test;

/**
 * The libmemcached ring places keys exactly where libmemcached places them, checked
 * against tables that libmemcached itself produced: its own test cases (IP literals,
 * weights) and a table from Debian's libmemcached for host names, ports other than 11211
 * and a weight (the C program beside the table).
 */
class LibmemcachedKetamaTests {

    @Test
    void placesLibmemcachedsOwnTestKeysOnItsServers() throws IOException {
        List<ServerAddress> servers = parse("10.0.1.1:11211 600", "10.0.1.2:11211 300", "10.0.1.3:11211 200",
                "10.0.1.4:11211 350", "10.0.1.5:11211 1000", "10.0.1.6:11211 800", "10.0.1.7:11211 950",
                "10.0.1.8:11211 100");

        assertPlacements(LibmemcachedKetama.ring(servers), servers, "ring/libmemcached-ketama-weighted.tsv");
    }

    @Test
    void placesKeysByHostNameAndPortAsLibmemcachedDoes() throws IOException {
        List<ServerAddress> servers = parse("memcached-0.memcached:11211", "memcached-1.memcached:11211",
                "cache-2:11212", "10.0.0.3:11213 2");

        assertPlacements(LibmemcachedKetama.ring(servers), servers, "ring/libmemcached-ketama-names.tsv");
    }

    @Test
    void givesEqualServers160PointsEachInFloatAsLibmemcachedDoes() {
        assertThat(LibmemcachedKetama.pointsPerServer(1, 3, 3)).isEqualTo(160);
        assertThat(LibmemcachedKetama.ring(parse("a", "b", "c")).size()).isEqualTo(480);
        assertThat(LibmemcachedKetama.pointsPerServer(600, 4300, 8)).isEqualTo(176);
    }

    @Test
    void namesAServerOnTheDefaultPortByItsHostAlone() {
        HashRing written = LibmemcachedKetama.ring(parse("a:11211", "b:11211"));
        HashRing bare = LibmemcachedKetama.ring(parse("a", "b"));
        HashRing otherPort = LibmemcachedKetama.ring(parse("a:11212", "b:11212"));

        List<String> keys = IntStream.range(0, 200).mapToObj(i -> "/k/" + i).toList();
        assertThat(keys).allMatch(key -> written.serverFor(key) == bare.serverFor(key));
        assertThat(keys).anyMatch(key -> written.serverFor(key) != otherPort.serverFor(key));
    }

    static void assertPlacements(HashRing ring, List<ServerAddress> servers, String table) throws IOException {
        List<String[]> rows = rows(table);
        assertThat(rows).hasSizeGreaterThan(90);
        for (String[] row : rows) {
            ServerAddress placed = servers.get(ring.serverFor(row[0]));
            assertThat(placed.port() == ServerAddress.DEFAULT_PORT && !row[1].contains(":") ? placed.host()
                    : placed.host() + ":" + placed.port())
                .as("server of %s", row[0])
                .isEqualTo(row[1]);
        }
    }

    private static List<String[]> rows(String table) throws IOException {
        try (InputStream in = LibmemcachedKetamaTests.class.getClassLoader().getResourceAsStream(table)) {
            assertThat(in).as(table).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.split("\t", 2))
                .toList();
        }
    }

    private static List<ServerAddress> parse(String... servers) {
        return Arrays.stream(servers).map(ServerAddress::parse).toList();
    }

}
