package dev.cachegateway.comments.comment;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The Sinatra app's four endpoints. The cacheable ones invite shared caches (the gateway)
 * to keep the answer; the {@code no_cache} ones forbid it, so they always reach the
 * backend.
 */
@RestController
@RequestMapping(path = "/api/v1/comments", produces = MediaType.APPLICATION_JSON_VALUE)
public class CommentController {

    // Sinatra's :id: any one path segment, a number or not.
    private static final String ID = "{id}";

    static final String SURROGATE_KEY = "Surrogate-Key";

    private static final String NO_STORE = Objects.requireNonNull(CacheControl.noStore().getHeaderValue());

    private final CommentRepository comments;

    private final JsonMapper json;

    private final String cacheable;

    public CommentController(CommentRepository comments, JsonMapper json, CommentsProperties properties) {
        this.comments = comments;
        this.json = json;
        // Written out rather than built with CacheControl, which would order it
        // "max-age=60, public".
        this.cacheable = "public, max-age=" + properties.maxAge().toSeconds();
    }

    @GetMapping("/" + ID)
    public ResponseEntity<byte[]> comment(@PathVariable String id) {
        Comment comment = comments.findById(id);
        return respond(cacheable, comment, tags(List.of(comment)));
    }

    @GetMapping("/" + ID + "/no_cache")
    public ResponseEntity<byte[]> commentNoCache(@PathVariable String id) {
        return respond(NO_STORE, comments.findById(id), "");
    }

    @GetMapping("/users/" + ID)
    public ResponseEntity<byte[]> userComments(@PathVariable String id) {
        List<Comment> found = comments.findByUserId(id);
        return respond(cacheable, found, tags(found));
    }

    @GetMapping("/users/" + ID + "/no_cache")
    public ResponseEntity<byte[]> userCommentsNoCache(@PathVariable String id) {
        return respond(NO_STORE, comments.findByUserId(id), "");
    }

    // Serialised to bytes here, not streamed by a message converter, so the answer
    // carries a Content-Length as Sinatra's did: HTTP/1.0 clients such as ab can then
    // keep the connection alive.
    // With the tags a cache in front purges by (Fastly's Surrogate-Key): every answer
    // shows comments, and each author's name is on it.
    private ResponseEntity<byte[]> respond(String cacheControl, Object data, String tags) {
        ResponseEntity.BodyBuilder answer = ResponseEntity.ok().header(HttpHeaders.CACHE_CONTROL, cacheControl);
        if (!tags.isEmpty()) {
            answer.header(SURROGATE_KEY, tags);
        }
        return answer.contentType(MediaType.APPLICATION_JSON).body(json.writeValueAsBytes(data));
    }

    // "comments user-paul": a user id that is not a plain token names no tag of its own.
    private static String tags(List<Comment> shown) {
        Set<String> tags = new LinkedHashSet<>(List.of("comments"));
        shown.stream()
            .map(Comment::userId)
            .filter(user -> user.matches("[A-Za-z0-9._-]+"))
            .forEach(user -> tags.add("user-" + user));
        return String.join(" ", tags);
    }

}
