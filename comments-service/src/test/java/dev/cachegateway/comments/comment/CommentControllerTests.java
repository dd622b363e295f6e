package dev.cachegateway.comments.comment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Collections;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.servlet.assertj.MockMvcTester;
import org.springframework.test.web.servlet.assertj.MvcTestResult;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

@WebMvcTest(CommentController.class)
@Import(CommentRepository.class)
@EnableConfigurationProperties(CommentsProperties.class)
@TestPropertySource(properties = "comments.max-age=120s")
class CommentControllerTests {

    static final String COMMENT = "{\"id\":2,\"user_id\":\"paul\",\"body\":\"this is a test comment to see how this thing works.\"}";

    static final String USER_COMMENTS = "[" + String.join(",", Collections.nCopies(25, COMMENT)) + "]";

    @Autowired
    MockMvcTester mvc;

    @Test
    void servesTheSingleCommentByteForByte() {
        MvcTestResult result = mvc.get().uri("/api/v1/comments/1").exchange();

        assertThat(result).hasStatusOk()
            .hasContentType("application/json")
            .hasHeader(HttpHeaders.CACHE_CONTROL, "public, max-age=120")
            .hasHeader("Surrogate-Key", "comments user-paul");
        assertThat(result.getResponse().getContentAsByteArray()).hasSize(86)
            .isEqualTo(COMMENT.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void servesTheUsersTwentyFiveCommentsByteForByte() {
        MvcTestResult result = mvc.get().uri("/api/v1/comments/users/7").exchange();

        assertThat(result).hasStatusOk()
            .hasContentType("application/json")
            .hasHeader(HttpHeaders.CACHE_CONTROL, "public, max-age=120")
            .hasHeader("Surrogate-Key", "comments user-paul");
        assertThat(result.getResponse().getContentAsByteArray()).hasSize(2176)
            .isEqualTo(USER_COMMENTS.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void forbidsStoringTheNoCacheVariants() {
        MvcTestResult single = mvc.get().uri("/api/v1/comments/1/no_cache").exchange();
        MvcTestResult collection = mvc.get().uri("/api/v1/comments/users/1/no_cache").exchange();

        assertThat(single).hasStatusOk().hasHeader(HttpHeaders.CACHE_CONTROL, "no-store").hasBodyTextEqualTo(COMMENT);
        assertThat(collection).hasStatusOk()
            .hasHeader(HttpHeaders.CACHE_CONTROL, "no-store")
            .hasBodyTextEqualTo(USER_COMMENTS);
    }

    @Test
    void sendsTheContentLengthOfTheBody() {
        MvcTestResult result = mvc.get().uri("/api/v1/comments/1").exchange();

        assertThat(result).hasHeader(HttpHeaders.CONTENT_LENGTH, "86");
    }

    // Sinatra's :id matches any one path segment, so these answer as a number does.
    @ParameterizedTest
    @ValueSource(strings = { "abc", "-1", "1234567890123456789", "users", "a.b", "caf%C3%A9" })
    void takesAnySingleSegmentAsTheIdLikeSinatra(String id) {
        assertThat(mvc.get().uri("/api/v1/comments/" + id).exchange()).hasStatusOk()
            .hasHeader(HttpHeaders.CACHE_CONTROL, "public, max-age=120")
            .hasBodyTextEqualTo(COMMENT);
        assertThat(mvc.get().uri("/api/v1/comments/" + id + "/no_cache").exchange()).hasStatusOk()
            .hasHeader(HttpHeaders.CACHE_CONTROL, "no-store")
            .hasBodyTextEqualTo(COMMENT);
        assertThat(mvc.get().uri("/api/v1/comments/users/" + id).exchange()).hasStatusOk()
            .hasHeader(HttpHeaders.CACHE_CONTROL, "public, max-age=120")
            .hasBodyTextEqualTo(USER_COMMENTS);
        assertThat(mvc.get().uri("/api/v1/comments/users/" + id + "/no_cache").exchange()).hasStatusOk()
            .hasHeader(HttpHeaders.CACHE_CONTROL, "no-store")
            .hasBodyTextEqualTo(USER_COMMENTS);
    }

    // Both /{id}/no_cache and /users/{id} match; the gateway routes the path as a
    // no_cache one, so must this.
    @Test
    void answersUsersNoCacheAsTheNoCacheVariantOfTheIdUsers() {
        assertThat(mvc.get().uri("/api/v1/comments/users/no_cache").exchange()).hasStatusOk()
            .hasHeader(HttpHeaders.CACHE_CONTROL, "no-store")
            .hasBodyTextEqualTo(COMMENT);
    }

    @ParameterizedTest
    @ValueSource(strings = { "/api/v1/comments", "/api/v1/comments/", "/api/v1/comments/1/extra",
            "/api/v1/comments/users/1/extra", "/api/v1/comments/1/no_cache/extra", "/nope" })
    void answersUnknownPathsWithJsonNotFound(String path) {
        MvcTestResult result = mvc.get().uri(path).exchange();

        assertThat(result).hasStatus(404)
            .hasContentType("application/problem+json")
            .bodyJson()
            .extractingPath("$.status")
            .isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = { "POST", "PUT", "DELETE", "PATCH" })
    void answersOtherMethodsWithJsonMethodNotAllowed(String method) {
        MvcTestResult result = mvc
            .perform(MockMvcRequestBuilders.request(HttpMethod.valueOf(method), "/api/v1/comments/1"));

        assertThat(result).hasStatus(405)
            .hasContentType("application/problem+json")
            .hasHeader(HttpHeaders.ALLOW, "GET")
            .bodyJson()
            .extractingPath("$.status")
            .isEqualTo(405);
    }

}
