package dev.cachegateway.deploy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A scrape job's relabel_configs as Prometheus applies them to the targets its discovery
 * found
 * (prometheus.io/docs/prometheus/latest/configuration/configuration/#relabel_config): the
 * actions keep, drop, replace and labelmap, with their defaults. A promtool built without
 * Kubernetes discovery cannot run a pod through them; this can, so the scrape example is
 * checked against the pods the manifests make.
 */
final class Relabelling {

    private final List<JsonNode> rules = new ArrayList<>();

    Relabelling(JsonNode relabelConfigs) {
        relabelConfigs.forEach(rules::add);
    }

    /**
     * The targets Prometheus scrapes for these discovered ones: the labels each keeps,
     * without the {@code __meta_} ones, and a target that comes out as another did is
     * scraped once.
     */
    Set<Map<String, String>> targets(List<Map<String, String>> discovered) {
        Set<Map<String, String>> targets = new LinkedHashSet<>();
        for (Map<String, String> target : discovered) {
            relabel(target).ifPresent(labels -> {
                labels.keySet().removeIf(name -> name.startsWith("__meta_"));
                targets.add(labels);
            });
        }
        return targets;
    }

    private Optional<Map<String, String>> relabel(Map<String, String> discovered) {
        Map<String, String> labels = new HashMap<>(discovered);
        for (JsonNode rule : rules) {
            Pattern regex = Pattern.compile("^(?:" + rule.path("regex").asText("(.*)") + ")$");
            String replacement = rule.path("replacement").asText("$1");
            Matcher matcher = regex.matcher(source(rule, labels));
            switch (rule.path("action").asText("replace")) {
                case "keep" -> {
                    if (!matcher.matches()) {
                        return Optional.empty();
                    }
                }
                case "drop" -> {
                    if (matcher.matches()) {
                        return Optional.empty();
                    }
                }
                case "replace" -> {
                    if (matcher.matches()) {
                        set(labels, rule.path("target_label").asText(), expand(matcher, replacement));
                    }
                }
                case "labelmap" -> {
                    for (String name : List.copyOf(labels.keySet())) {
                        Matcher nameMatcher = regex.matcher(name);
                        if (nameMatcher.matches()) {
                            labels.put(expand(nameMatcher, replacement), labels.get(name));
                        }
                    }
                }
                default -> throw new AssertionError("relabel action not modelled: " + rule.path("action"));
            }
        }
        return Optional.of(labels);
    }

    private static String source(JsonNode rule, Map<String, String> labels) {
        List<String> values = new ArrayList<>();
        rule.path("source_labels").forEach(name -> values.add(labels.getOrDefault(name.asText(), "")));
        return String.join(rule.path("separator").asText(";"), values);
    }

    /** $1 and ${1} as Go's regexp expands them; the example uses no named groups. */
    private static String expand(Matcher matcher, String replacement) {
        return matcher.replaceFirst(replacement.replaceAll("\\$\\{(\\d+)}", "\\$$1"));
    }

    private static void set(Map<String, String> labels, String name, String value) {
        // A label set to the empty string is no label at all.
        if (value.isEmpty()) {
            labels.remove(name);
        }
        else {
            labels.put(name, value);
        }
    }

}
