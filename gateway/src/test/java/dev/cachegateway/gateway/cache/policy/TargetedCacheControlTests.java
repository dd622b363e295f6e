package dev.cachegateway.gateway.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * {@code CDN-Cache-Control} (RFC 9213) through the store rules, which both item formats
 * share.
 */
class TargetedCacheControlTests {

    private static final long NOW = 1_800_000_000_000L;

    private final StorePolicy policy = new StorePolicy(List.of(200), Duration.ZERO, Duration.ofDays(1),
            MediaType.APPLICATION_JSON, 0, 1024, Set.of(), StaleWindows.NONE);

    private StoreDecision decide(String targeted, String cacheControl) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.set(TargetedCacheControl.HEADER, targeted);
        headers.set(HttpHeaders.CACHE_CONTROL, cacheControl);
        return policy.decide(HttpMethod.GET, HttpStatus.OK, headers, NOW);
    }

    @Test
    void followsTheTargetedFieldOverCacheControl() {
        assertThat(decide("max-age=10", "max-age=3600").ttlSeconds()).isEqualTo(10);
        assertThat(decide("max-age=600", "no-store").ttlSeconds()).isEqualTo(600);
        assertThat(decide("private", "max-age=3600").skipped()).isEqualTo(Skip.CACHE_CONTROL);
        assertThat(decide("no-store, max-age=60", "max-age=3600").skipped()).isEqualTo(Skip.CACHE_CONTROL);
    }

    @Test
    void ignoresExpiresWhenTheTargetedFieldGoverns() {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.set(TargetedCacheControl.HEADER, "max-age=0");
        headers.setExpires(NOW + 3_600_000);

        assertThat(policy.decide(HttpMethod.GET, HttpStatus.OK, headers, NOW).skipped()).isEqualTo(Skip.EXPIRED);
    }

    @Test
    void ignoresATargetedFieldThatIsNotAValidDictionaryOrHasTheWrongTypes() {
        assertThat(decide("max-age=10000, &&&&&", "no-store").skipped()).isEqualTo(Skip.CACHE_CONTROL);
        assertThat(decide("max-age=\"10000\"", "no-store").skipped()).isEqualTo(Skip.CACHE_CONTROL);
        assertThat(decide("max-age =10000", "max-age=60").ttlSeconds()).isEqualTo(60);
        assertThat(decide("MAX-AGE=10000", "max-age=60").ttlSeconds()).isEqualTo(60);
        assertThat(decide("private=\"x\"", "max-age=60").ttlSeconds()).isEqualTo(60);
    }

    @Test
    void takesExtensionsItDoesNotKnowAndParameters() {
        assertThat(decide("max-age=100, foo=bar;baz=?1, list=(a b)", "no-store").ttlSeconds()).isEqualTo(100);
    }

}
