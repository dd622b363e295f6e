package dev.cachegateway.gateway.cache.purge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cachegateway.gateway.cache.purge.PurgeAccess.Verdict;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class PurgeAccessTests {

    @Test
    void allowsOnlyTheBearerOfTheToken() {
        PurgeAccess access = access("s3cret", false);

        assertThat(access.judge("Bearer s3cret")).isEqualTo(Verdict.ALLOWED);
        assertThat(access.judge("bearer s3cret")).as("the scheme is case-insensitive").isEqualTo(Verdict.ALLOWED);
        assertThat(access.judge("Bearer s3cre")).isEqualTo(Verdict.UNAUTHORIZED);
        assertThat(access.judge("Bearer s3cretx")).isEqualTo(Verdict.UNAUTHORIZED);
        assertThat(access.judge("Basic s3cret")).isEqualTo(Verdict.UNAUTHORIZED);
        assertThat(access.judge("s3cret")).isEqualTo(Verdict.UNAUTHORIZED);
        assertThat(access.judge(null)).isEqualTo(Verdict.UNAUTHORIZED);
    }

    @Test
    void aTokenWinsOverOpenPurges() {
        assertThat(access("s3cret", true).judge(null)).isEqualTo(Verdict.UNAUTHORIZED);
    }

    @Test
    void withoutATokenRefusesPurgesUnlessTheyAreOpened() {
        assertThat(access(null, false).judge("Bearer anything")).isEqualTo(Verdict.FORBIDDEN);
        assertThat(access("  ", false).judge(null)).as("a blank token is none").isEqualTo(Verdict.FORBIDDEN);
        assertThat(access(null, true).judge(null)).isEqualTo(Verdict.ALLOWED);
    }

    private static PurgeAccess access(@Nullable String token, boolean unauthenticated) {
        PurgeAccessProperties properties = new PurgeAccessProperties();
        properties.setPurgeToken(token);
        properties.setPurgeUnauthenticated(unauthenticated);
        return new PurgeAccess(properties);
    }

}
