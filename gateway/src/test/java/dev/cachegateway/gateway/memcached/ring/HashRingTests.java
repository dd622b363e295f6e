package dev.cachegateway.gateway.memcached.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/**
 * The continuum search that libmemcached and nginx share: the first point at or after the
 * key's hash, wrapping.
 */
class HashRingTests {

    // The key's hash is its first byte, so that a test can aim at any spot of a small
    // ring.
    private final HashRing ring = new HashRing.Builder(key -> key[0] & 0xFF).add(30, 2).add(10, 0).add(20, 1).build();

    @Test
    void givesAKeyToTheFirstPointAtOrAfterItsHash() {
        assertThat(ring.serverFor(key(5))).isEqualTo(0);
        assertThat(ring.serverFor(key(10))).isEqualTo(0);
        assertThat(ring.serverFor(key(11))).isEqualTo(1);
        assertThat(ring.serverFor(key(30))).isEqualTo(2);
    }

    @Test
    void wrapsAKeyPastTheLastPointToTheFirst() {
        assertThat(ring.serverFor(key(31))).isEqualTo(0);
        assertThat(ring.serverFor(key(127))).isEqualTo(0);
    }

    private static String key(int hash) {
        return new String(new byte[] { (byte) hash }, StandardCharsets.US_ASCII);
    }

}
