package dev.cachegateway.comments;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The comments API of the article's Sinatra app: the backend that the gateway caches.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class CommentsServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(CommentsServiceApplication.class, args);
    }

}
