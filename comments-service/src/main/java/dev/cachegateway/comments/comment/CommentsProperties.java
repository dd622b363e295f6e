package dev.cachegateway.comments.comment;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the comments API.
 *
 * @param maxAge how long shared caches may keep a cacheable answer: the {@code max-age}
 * of its Cache-Control
 */
@ConfigurationProperties("comments")
public record CommentsProperties(@DefaultValue("60s") Duration maxAge) {
}
