package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import org.junit.jupiter.api.Test;

/**
 * The optional k8s-namespace overlay: a namespace that enforces the restricted Pod
 * Security Standard, with the application in it; and the labels deploy/README.md gives
 * for a namespace of one's own are the same.
 */
class RestrictedNamespaceTests {

    static final Path OVERLAY = Path.of("k8s-namespace");

    static final String PREFIX = "pod-security.kubernetes.io/";

    private static final Pattern README_LABEL = Pattern
        .compile("(pod-security\\.kubernetes\\.io/[a-z-]+)=([a-z0-9.]+)");

    final JsonNode kustomization = Manifests.readTree(OVERLAY.resolve("kustomization.yaml"));

    final Namespace namespace = read(OVERLAY.resolve("namespace.yaml"));

    @Test
    void overlayAppliesTheManifestsIntoTheNamespaceItCreates() {
        List<String> resources = new ArrayList<>();
        kustomization.path("resources").forEach(resource -> resources.add(resource.asText()));
        assertThat(resources).containsExactly("namespace.yaml", "../" + Manifests.DIRECTORY);
        assertThat(kustomization.path("namespace").asText()).isEqualTo(namespace.getMetadata().getName());
    }

    @Test
    void namespaceIsATypedNamespaceWithOnlyTheFieldsItHas() {
        assertThat(namespace.getApiVersion()).isEqualTo("v1");
        assertThat(UnknownFields.in(namespace)).isEmpty();
    }

    @Test
    void namespaceEnforcesWarnsAndAuditsTheRestrictedStandard() {
        assertThat(enforcesRestricted(namespace.getMetadata().getLabels())).isTrue();
    }

    @Test
    void aNamespaceLabelledForLessDoesNotEnforceIt() {
        Map<String, String> baseline = new HashMap<>(namespace.getMetadata().getLabels());
        baseline.put(PREFIX + "enforce", "baseline");
        assertThat(enforcesRestricted(baseline)).as("baseline").isFalse();

        Map<String, String> warnOnly = new HashMap<>(namespace.getMetadata().getLabels());
        warnOnly.remove(PREFIX + "enforce");
        assertThat(enforcesRestricted(warnOnly)).as("warn and audit only").isFalse();

        Map<String, String> noAudit = new HashMap<>(namespace.getMetadata().getLabels());
        noAudit.remove(PREFIX + "audit");
        assertThat(enforcesRestricted(noAudit)).as("no audit").isFalse();
    }

    @Test
    void readmeLabelsANamespaceAsTheOverlayDoes() {
        Map<String, String> inReadme = new HashMap<>();
        Matcher matcher = README_LABEL.matcher(readme());
        while (matcher.find()) {
            inReadme.put(matcher.group(1), matcher.group(2));
        }
        Map<String, String> inManifest = new HashMap<>(namespace.getMetadata().getLabels());
        inManifest.keySet().removeIf(label -> !label.startsWith(PREFIX));
        assertThat(inReadme).isEqualTo(inManifest);
    }

    /**
     * Whether a namespace with these labels enforces, warns and audits the restricted
     * profile.
     */
    static boolean enforcesRestricted(Map<String, String> labels) {
        return List.of("enforce", "warn", "audit")
            .stream()
            .allMatch(mode -> "restricted".equals(labels.get(PREFIX + mode)));
    }

    static String readme() {
        try {
            return Files.readString(Path.of("README.md"));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    private static Namespace read(Path file) {
        try {
            KubernetesResource resource = Manifests.YAML.readValue(file.toFile(), KubernetesResource.class);
            assertThat(resource).as(file.toString()).isInstanceOf(Namespace.class);
            return (Namespace) resource;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(file.toString(), ex);
        }
    }

}
