package dev.cachegateway.comments.comment;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One comment. The field order and the snake_case name are the Sinatra app's JSON, byte
 * for byte.
 */
@JsonPropertyOrder({ "id", "user_id", "body" })
public record Comment(long id, @JsonProperty("user_id") String userId, String body) {
}
