package dev.cachegateway.gateway.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class CacheControlDirectivesTests {

    @Test
    void readsSeveralDirectivesInOneLineAndAcrossLines() {
        CacheControlDirectives directives = CacheControlDirectives
            .parse(List.of("public, max-age=60", "S-MAXAGE=120 , must-revalidate"));

        assertThat(directives.has("public")).isTrue();
        assertThat(directives.has("must-revalidate")).isTrue();
        assertThat(directives.seconds("max-age")).isEqualTo(60);
        assertThat(directives.seconds("s-maxage")).isEqualTo(120);
        assertThat(directives.has("private")).isFalse();
    }

    @Test
    void keepsACommaInsideAQuotedValueInItsDirective() {
        CacheControlDirectives directives = CacheControlDirectives
            .parse(List.of("no-cache=\"Set-Cookie, X-Private\", max-age=\"30\""));

        assertThat(directives.has("no-cache")).isTrue();
        assertThat(directives.has("x-private\"")).isFalse();
        assertThat(directives.seconds("max-age")).isEqualTo(30);
    }

    @Test
    void ignoresALifetimeThatIsNotDeltaSeconds() {
        assertThat(CacheControlDirectives.parse(List.of("max-age=soon")).seconds("max-age")).isEqualTo(-1);
        assertThat(CacheControlDirectives.parse(List.of("max-age=-5")).seconds("max-age")).isEqualTo(-1);
        assertThat(CacheControlDirectives.parse(List.of("max-age=3600a")).seconds("max-age")).isEqualTo(-1);
        assertThat(CacheControlDirectives.parse(List.of("public")).seconds("max-age")).isEqualTo(-1);
    }

    @Test
    void ignoresADirectiveWithWhitespaceAroundItsEqualsSign() {
        assertThat(CacheControlDirectives.parse(List.of("max-age = 3600")).has("max-age")).isFalse();
        assertThat(CacheControlDirectives.parse(List.of("max-age =3600")).has("max-age")).isFalse();
        assertThat(CacheControlDirectives.parse(List.of("max-age= 3600")).has("max-age")).isFalse();
        assertThat(CacheControlDirectives.parse(List.of(" max-age=3600 ")).seconds("max-age")).isEqualTo(3600);
    }

    @Test
    void readsAnOverlongLifetimeAsTwoToTheThirtyFirst() {
        assertThat(CacheControlDirectives.parse(List.of("max-age=99999999999999999999")).seconds("max-age"))
            .isEqualTo(2_147_483_648L);
        assertThat(CacheControlDirectives.parse(List.of("max-age=003600")).seconds("max-age")).isEqualTo(3600);
    }

    @Test
    void keepsTheFirstOfARepeatedDirective() {
        assertThat(CacheControlDirectives.parse(List.of("max-age=10, max-age=99")).seconds("max-age")).isEqualTo(10);
    }

}
