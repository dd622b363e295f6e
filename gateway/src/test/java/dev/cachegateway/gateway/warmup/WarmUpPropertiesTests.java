package dev.cachegateway.gateway.warmup;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WarmUpPropertiesTests {

    private static WarmUpProperties warmUp(String duration, String readyWithin) {
        WarmUpProperties properties = new WarmUpProperties();
        properties.setDuration(Duration.parse(duration));
        properties.setReadyWithin(Duration.parse(readyWithin));
        return properties;
    }

    @Test
    void warmsUpForTheWholeDurationWithoutABound() {
        assertThat(warmUp("PT5S", "PT0S").lengthAfter(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void warmsUpForTheWholeDurationWhenTheStartLeftRoomForIt() {
        assertThat(warmUp("PT5S", "PT9S").lengthAfter(Duration.ofMillis(3500))).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void cutsTheWarmUpToWhatASlowStartLeft() {
        assertThat(warmUp("PT8S", "PT9S").lengthAfter(Duration.ofMillis(6200))).isEqualTo(Duration.ofMillis(2800));
    }

    @Test
    void skipsTheWarmUpWhenTheStartTookTheWholeBound() {
        assertThat(warmUp("PT8S", "PT9S").lengthAfter(Duration.ofSeconds(9))).isZero();
        assertThat(warmUp("PT8S", "PT9S").lengthAfter(Duration.ofSeconds(12))).isZero();
    }

}
