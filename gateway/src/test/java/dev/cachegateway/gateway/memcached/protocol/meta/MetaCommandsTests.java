package dev.cachegateway.gateway.memcached.protocol.meta;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MetaCommandsTests {

    @ParameterizedTest
    @ValueSource(strings = { "1.6.10", "1.6.18", "1.6.40", "1.7.0", "2.0.0", "1.6.21-proxy", " 1.6.12 " })
    void trustsMemcachedFrom1610WithMetaCommands(String version) {
        assertThat(MetaCommands.supportedBy(version)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = { "1.6.9", "1.6.0", "1.5.19", "1.5.22", "1.4.39", "0.9.99", "1.4.5_4_gaa7839e" })
    void leavesOlderMemcachedWhoseMetaCommandsDifferOrAreMissingToGet(String version) {
        assertThat(MetaCommands.supportedBy(version)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "unknown", "1.6", "v1.6.18", "1.6.x", "99999999999999999999.0.0" })
    void leavesAVersionItCannotReadToGet(String version) {
        assertThat(MetaCommands.supportedBy(version)).isFalse();
    }

}
