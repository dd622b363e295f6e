package dev.cachegateway.gateway.cache.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.http.HttpHeaders;

class CacheKeyTemplateTests {

    private final CacheKeyTemplate uri = CacheKeyTemplate.parse("$uri");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "NONE", textBlock = """
            /api/v1/comments/1                  | /api/v1/comments/1
            /a%20b                              | /a%20b
            '/a b'                              | /a%20b
            /100%25                             | /100%25
            /x%0d%0aflush_all                   | /x%0D%0Aflush_all
            /x%0D%0Aset%20k%200%200%201         | /x%0D%0Aset%20k%200%200%201
            /nul%00byte                         | /nul%00byte
            /tab%09                             | /tab%09
            /del%7F                             | /del\u007f
            /caf%C3%A9                          | /café
            /café                               | /café
            /%E2%82%AC/%F0%9F%98%80             | /€/😀
            /a/../b                             | /b
            /a/./b                              | /a/b
            /a/b/..                             | /a/
            /a/b/.                              | /a/b/
            /a//b///c                           | /a/b/c
            //a                                 | /a
            /a/                                 | /a/
            /                                   | /
            /%2e%2e/x                           | NONE
            /..                                 | NONE
            /a/../../b                          | NONE
            /a%2Fb                              | /a/b
            /bad%zz                             | NONE
            /trailing%                          | NONE
            /trailing%4                         | NONE
            /overlong%C0%AF                     | NONE
            /lone%FF                            | NONE
            relative                            | NONE
            """)
    void derivesTheKeyAsNginxEscapesUri(String rawPath, String expected) {
        assertThat(uri.render(rawPath, null)).isEqualTo(Optional.ofNullable(expected));
    }

    @Test
    void escapesARawControlByte() {
        assertThat(uri.render("/bell\u0007/cr\r/lf\n", null)).contains("/bell%07/cr%0D/lf%0A");
    }

    @Test
    void leavesTheQueryStringOutOfUri() {
        assertThat(uri.render("/api/v1/comments/1", "page=2&sort=asc")).contains("/api/v1/comments/1");
    }

    @Test
    void includesTheRawQueryStringWhenTheTemplateAsksForIt() {
        CacheKeyTemplate withArgs = CacheKeyTemplate.parse("$uri$is_args$args");

        assertThat(withArgs.render("/list", "page=2&q=a%20b")).contains("/list?page=2&q=a%2520b");
        assertThat(withArgs.render("/list", null)).contains("/list");
        assertThat(withArgs.render("/list", "")).contains("/list");
    }

    @Test
    void keepsLiteralTextAndBracedVariables() {
        assertThat(CacheKeyTemplate.parse("v2:${uri}").render("/a", null)).contains("v2:/a");
    }

    @Test
    void acceptsKeysUpTo250BytesAndBypassesLongerOnes() {
        assertThat(uri.render(pathOfBytes(249), null).orElseThrow()).hasSize(249);
        assertThat(uri.render(pathOfBytes(250), null).orElseThrow()).hasSize(250);
        assertThat(uri.render(pathOfBytes(251), null)).isEmpty();
    }

    @Test
    void countsTheLimitAfterEscapingAndInUtf8Bytes() {
        String spaces = "/" + " ".repeat(83);
        assertThat(uri.render(spaces, null).orElseThrow()).hasSize(250);
        assertThat(uri.render(spaces + " ", null)).isEmpty();

        String accented = "/" + "é".repeat(124) + "a";
        assertThat(uri.render(accented, null).orElseThrow().getBytes(StandardCharsets.UTF_8)).hasSize(250);
        assertThat(uri.render(accented + "a", null)).isEmpty();
    }

    @Test
    void takesARequestHeaderByItsNginxVariableName() {
        CacheKeyTemplate byLanguage = CacheKeyTemplate.parse("$uri|$http_accept_language");
        HttpHeaders headers = new HttpHeaders();
        headers.add("Accept-Language", "en-GB");

        assertThat(byLanguage.headerNames()).containsExactly("accept-language");
        assertThat(byLanguage.render("/a", null, headers)).contains("/a|en-GB");
        assertThat(byLanguage.render("/a", null, new HttpHeaders())).contains("/a|");
    }

    @Test
    void joinsTheLinesOfAHeaderAsNginxDoesAndEscapesThem() {
        CacheKeyTemplate template = CacheKeyTemplate.parse("$uri $http_x_tenant $http_cookie");
        HttpHeaders headers = new HttpHeaders();
        headers.add("X-Tenant", "a");
        headers.add("x-tenant", "b\r\n");
        headers.add("Cookie", "c=1");
        headers.add("Cookie", "d=2");

        assertThat(template.render("/p", null, headers)).contains("/p%20a,%20b%0D%0A%20c=1;%20d=2");
    }

    @Test
    void rejectsAnUnknownVariableAtStartUp() {
        assertThatIllegalArgumentException().isThrownBy(() -> CacheKeyTemplate.parse("$uri$host"))
            .withMessageContaining("$host");
    }

    private static String pathOfBytes(int bytes) {
        return "/" + "k".repeat(bytes - 1);
    }

}
