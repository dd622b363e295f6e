package dev.cachegateway.springpeer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A plain Spring Cloud Gateway in front of comments-service, configured in application.yml only: the benchmark's
 * measure of what Spring Cloud Gateway costs alone, and of its own response cache.
 */
@SpringBootApplication
public class SpringPeerApplication {

    public static void main(String[] args) {
        SpringApplication.run(SpringPeerApplication.class, args);
    }
}
