package dev.cachegateway.demo.support;

import java.util.ArrayList;
import java.util.List;

import dev.cachegateway.demo.GatewayApplication;
import org.testcontainers.containers.GenericContainer;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Gateways that run side by side in one JVM, as replicas that share memcached and a
 * backend.
 */
public final class GatewayReplicas {

    private GatewayReplicas() {
    }

    /**
     * A gateway on random ports in front of {@code memcached} and a backend, with more
     * settings if given.
     */
    public static ConfigurableApplicationContext start(GenericContainer<?> memcached, String backendUri,
            String... settings) {
        return start(MemcachedContainer.address(memcached), backendUri, settings);
    }

    /**
     * A gateway as above, in front of the memcached servers given as
     * {@code memcached.servers} takes them.
     */
    public static ConfigurableApplicationContext start(String memcachedServers, String backendUri, String... settings) {
        List<String> args = new ArrayList<>(
                List.of("--server.port=0", "--management.server.port=0", "--comments-service.uri=" + backendUri,
                        "--memcached.servers=" + memcachedServers, "--memcached.operation-timeout=500ms"));
        args.addAll(List.of(settings));
        return new SpringApplicationBuilder(GatewayApplication.class).run(args.toArray(String[]::new));
    }

    /**
     * The base URI of {@code gateway}'s management port, where its actuator endpoints
     * are.
     */
    public static String managementUri(ConfigurableApplicationContext gateway) {
        return "http://localhost:" + gateway.getEnvironment().getRequiredProperty("local.management.port");
    }

    /** The URI of {@code path} on {@code gateway}. */
    public static String uri(ConfigurableApplicationContext gateway, String path) {
        return "http://localhost:" + ((WebServerApplicationContext) gateway).getWebServer().getPort() + path;
    }

}
