package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * The alert rules in prometheus/ agree with the docs and with their own cases: each has
 * its entry in docs/operations.md, reads meters the gateway has (or says what else it
 * needs), and has a case where it fires and one where it must not. promtool checks the
 * rules themselves (prometheus/check.sh).
 */
class AlertRulesTests {

    static final Path RULES = Path.of("prometheus/alerts.yml");

    static final Path CASES = Path.of("prometheus/alerts-test.yml");

    static final Path OPERATIONS = SpringApp.PROJECT.resolve("docs/operations.md");

    /** Meters that memcached_exporter has, not the gateway. */
    static final Set<String> EXPORTER_METRICS = Set.of("memcached_items_evicted_total");

    private static final Pattern METRIC = Pattern.compile("\\b(?:memcached|gateway|resilience4j)_[a-z0-9_]+\\b");

    private static final Pattern SUFFIX = Pattern.compile("_total$|_seconds_(?:bucket|count|sum|max)$");

    final List<JsonNode> rules = rules();

    final String operations = read(OPERATIONS);

    @Test
    void everyRuleSaysHowLongHowBadWhatAndWhereItsRunbookIs() {
        assertThat(rules).isNotEmpty().allSatisfy(rule -> {
            String name = rule.path("alert").asText();
            assertThat(name).isNotBlank();
            assertThat(rule.path("for").asText()).as("%s: for", name).isNotBlank();
            assertThat(rule.path("labels").path("severity").asText()).as("%s: severity", name)
                .isIn("warning", "critical");
            assertThat(rule.path("annotations").path("summary").asText()).as("%s: summary", name).isNotBlank();
            assertThat(rule.path("annotations").path("description").asText()).as("%s: description", name).isNotBlank();
        });
    }

    @Test
    void everyRunbookUrlIsItsAlertsEntryInTheOperationsDocs() {
        List<String> headings = new ArrayList<>();
        String alerts = section(operations, "## Alerts");
        alerts.lines().filter(line -> line.startsWith("### ")).forEach(line -> headings.add(line.substring(4)));
        List<String> names = rules.stream().map(rule -> rule.path("alert").asText()).toList();
        assertThat(headings).as("the entries of docs/operations.md#alerts").containsExactlyInAnyOrderElementsOf(names);
        assertThat(rules).allSatisfy(rule -> assertThat(rule.path("annotations").path("runbook_url").asText())
            .isEqualTo("docs/operations.md#" + anchor(rule.path("alert").asText())));
    }

    @Test
    void everyRuleReadsMetersTheGatewayHasOrNamesWhatExportsThem() {
        for (JsonNode rule : rules) {
            Matcher metrics = METRIC.matcher(rule.path("expr").asText());
            assertThat(metrics.find()).as("%s reads a meter", rule.path("alert").asText()).isTrue();
            do {
                String metric = metrics.group();
                if (EXPORTER_METRICS.contains(metric)) {
                    assertThat(rule.path("annotations").path("description").asText()).contains("memcached_exporter");
                    continue;
                }
                // memcached.cache.lookups is memcached_cache_lookups_total in
                // Prometheus's
                // format, a timer's buckets memcached_operations_seconds_bucket.
                String meter = SUFFIX.matcher(metric).replaceFirst("").replace('_', '.');
                assertThat(section(operations, "## Meters")).as("%s in the table of meters", metric)
                    .contains("| `" + meter + "`");
            }
            while (metrics.find());
        }
    }

    @Test
    void everyRuleHasACaseWhereItFiresAndOneWhereItMustNot() {
        Set<String> fires = new HashSet<>();
        Set<String> quiet = new HashSet<>();
        Manifests.readTree(CASES).path("tests").forEach(test -> test.path("alert_rule_test").forEach(check -> {
            (check.path("exp_alerts").isEmpty() ? quiet : fires).add(check.path("alertname").asText());
        }));
        assertThat(Manifests.readTree(CASES).path("rule_files").get(0).asText())
            .isEqualTo(RULES.getFileName().toString());
        for (JsonNode rule : rules) {
            String name = rule.path("alert").asText();
            assertThat(fires).as("cases where it fires").contains(name);
            assertThat(quiet).as("cases where it must not").contains(name);
        }
    }

    private static List<JsonNode> rules() {
        JsonNode groups = Manifests.readTree(RULES).path("groups");
        assertThat(groups).as("one rule group").hasSize(1);
        assertThat(groups.get(0).path("name").asText()).isEqualTo("memcached-gateway");
        List<JsonNode> rules = new ArrayList<>();
        groups.get(0).path("rules").forEach(rules::add);
        return rules;
    }

    /** The text under a heading, up to the next heading of its level. */
    private static String section(String markdown, String heading) {
        int start = markdown.indexOf("\n" + heading + "\n");
        assertThat(start).as(heading).isNotNegative();
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        int end = markdown.indexOf("\n" + level, start + heading.length() + 1);
        return markdown.substring(start, end < 0 ? markdown.length() : end);
    }

    /** A heading's anchor as GitHub makes it. */
    private static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9 _-]", "").replace(' ', '-');
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

}
