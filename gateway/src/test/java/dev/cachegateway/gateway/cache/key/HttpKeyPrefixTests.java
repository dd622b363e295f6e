package dev.cachegateway.gateway.cache.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class HttpKeyPrefixTests {

    private final HttpKeyPrefix prefix = new HttpKeyPrefix("http:");

    @Test
    void putsThePrefixBeforeEveryKeyOfAWholeAnswerRoute() {
        assertThat(prefix.wholeAnswerKeys("$uri").render("/api/v1/comments/1", null))
            .hasValue("http:/api/v1/comments/1");
    }

    @Test
    void leavesTheKeysOfABodyRouteAsTheirTemplateMakesThem() {
        assertThat(prefix.bodyKeys("$uri").render("/api/v1/comments/1", null)).hasValue("/api/v1/comments/1");
    }

    // A body route reads any item as a body, so it would serve an item's headers to its
    // clients.
    @Test
    void refusesABodyRouteWhoseKeysWouldNameWholeAnswers() {
        assertThatIllegalArgumentException().isThrownBy(() -> prefix.bodyKeys("http:$uri"))
            .withMessageContaining("memcached.cache.http.key-prefix");
    }

    @Test
    void takesAnyTemplateForABodyRouteWhenWholeAnswersHaveNoPrefix() {
        assertThat(new HttpKeyPrefix("").bodyKeys("http:$uri").render("/a", null)).hasValue("http:/a");
    }

}
