package dev.cachegateway.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One of the project's Spring Boot applications as its own files describe it: the
 * settings of its application.yml that a manifest must agree with, and its Dockerfile.
 */
record SpringApp(String name, JsonNode config, String dockerfile) {

    static final Path PROJECT = Path.of("..");

    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)?");

    private static final Pattern UID = Pattern.compile("--uid (\\d+)");

    /**
     * The module of that name; its Deployment, Service and compose service carry the same
     * name.
     */
    static SpringApp of(String name) {
        Path module = PROJECT.resolve(name);
        try {
            return new SpringApp(name, Manifests.readTree(module.resolve("src/main/resources/application.yml")),
                    Files.readString(module.resolve("Dockerfile")));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * A property by its dotted name, found in nested form or written with dots at any
     * level.
     */
    Optional<String> property(String name) {
        return find(config, name);
    }

    private static Optional<String> find(JsonNode node, String name) {
        if (node.has(name) && node.get(name).isValueNode()) {
            return Optional.of(node.get(name).asText());
        }
        for (int dot = name.indexOf('.'); dot > 0; dot = name.indexOf('.', dot + 1)) {
            JsonNode child = node.get(name.substring(0, dot));
            if (child != null && child.isObject()) {
                Optional<String> found = find(child, name.substring(dot + 1));
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }

    int serverPort() {
        return Integer.parseInt(property("server.port").orElse("8080"));
    }

    /**
     * Actuator's port: the server's unless management.server.port gives it one of its
     * own.
     */
    int managementPort() {
        return property("management.server.port").map(Integer::parseInt).orElse(serverPort());
    }

    boolean probesEnabled() {
        return property("management.endpoint.health.probes.enabled").map(Boolean::parseBoolean).orElse(false);
    }

    /**
     * How long a graceful shutdown may take; Spring Boot shuts down gracefully by
     * default.
     */
    Duration shutdownTimeout() {
        if (property("server.shutdown").filter("immediate"::equals).isPresent()) {
            return Duration.ZERO;
        }
        String timeout = property("spring.lifecycle.timeout-per-shutdown-phase").orElse("30s");
        Matcher matcher = DURATION.matcher(timeout);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("unexpected duration " + timeout);
        }
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2) == null ? "ms" : matcher.group(2)) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofMillis(amount);
        };
    }

    /** The numeric id of the user the Dockerfile creates and runs as. */
    long dockerfileUid() {
        Matcher matcher = UID.matcher(dockerfile);
        if (!matcher.find()) {
            throw new IllegalStateException(name + "/Dockerfile creates no user with --uid");
        }
        return Long.parseLong(matcher.group(1));
    }
}
