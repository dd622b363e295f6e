package dev.cachegateway.comments.comment;

import java.util.Objects;

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
        return respond(cacheable, comments.findById(id));
    }

    @GetMapping("/" + ID + "/no_cache")
    public ResponseEntity<byte[]> commentNoCache(@PathVariable String id) {
        return respond(NO_STORE, comments.findById(id));
    }

    @GetMapping("/users/" + ID)
    public ResponseEntity<byte[]> userComments(@PathVariable String id) {
        return respond(cacheable, comments.findByUserId(id));
    }

    @GetMapping("/users/" + ID + "/no_cache")
    public ResponseEntity<byte[]> userCommentsNoCache(@PathVariable String id) {
        return respond(NO_STORE, comments.findByUserId(id));
    }

    // Serialised to bytes here, not streamed by a message converter, so the answer
    // carries a Content-Length as Sinatra's did: HTTP/1.0 clients such as ab can then
    // keep the connection alive.
    private ResponseEntity<byte[]> respond(String cacheControl, Object data) {
        return ResponseEntity.ok()
            .header(HttpHeaders.CACHE_CONTROL, cacheControl)
            .contentType(MediaType.APPLICATION_JSON)
            .body(json.writeValueAsBytes(data));
    }

}
