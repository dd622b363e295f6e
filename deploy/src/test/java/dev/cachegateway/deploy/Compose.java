package dev.cachegateway.deploy;

import java.util.Locale;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * docker-compose.yml, the local demo the manifests must stay in step with: image names
 * and memory limits.
 */
final class Compose {

    private final JsonNode services = Manifests.readTree(SpringApp.PROJECT.resolve("docker-compose.yml"))
        .path("services");

    Optional<String> image(String service) {
        return Optional.ofNullable(services.path(service).path("image").textValue());
    }

    /** The service's mem_limit in bytes, such as 512m. */
    Optional<Long> memoryLimit(String service) {
        String limit = services.path(service).path("mem_limit").asText("").toLowerCase(Locale.ROOT);
        if (limit.isEmpty()) {
            return Optional.empty();
        }
        long unit = switch (limit.charAt(limit.length() - 1)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1L;
        };
        String digits = Character.isDigit(limit.charAt(limit.length() - 1)) ? limit
                : limit.substring(0, limit.length() - 1);
        return Optional.of(Long.parseLong(digits) * unit);
    }

}
