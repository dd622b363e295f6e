package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;

/**
 * The manifests that k8s/kustomization.yaml lists, read into fabric8's typed API objects:
 * an apiVersion and kind that the Kubernetes API knows become their own class, anything
 * else a generic resource.
 */
final class Manifests {

    static final Path DIRECTORY = Path.of("k8s");

    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private final Map<String, List<KubernetesResource>> byFile = new LinkedHashMap<>();

    private Manifests(List<String> files) {
        for (String file : files) {
            byFile.put(file, read(DIRECTORY.resolve(file)));
        }
    }

    static Manifests load() {
        List<String> files = new ArrayList<>();
        readTree(DIRECTORY.resolve("kustomization.yaml")).path("resources").forEach(file -> files.add(file.asText()));
        return new Manifests(files);
    }

    /** The YAML files in the directory, but kustomization.yaml. */
    static List<String> filesInDirectory() {
        try (Stream<Path> files = Files.list(DIRECTORY)) {
            return files.map(file -> file.getFileName().toString())
                .filter(name -> name.endsWith(".yaml") || name.endsWith(".yml"))
                .filter(name -> !name.equals("kustomization.yaml"))
                .sorted()
                .toList();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    static JsonNode readTree(Path file) {
        try {
            return YAML.readTree(file.toFile());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(file.toString(), ex);
        }
    }

    private static List<KubernetesResource> read(Path file) {
        try (MappingIterator<KubernetesResource> documents = YAML.readerFor(KubernetesResource.class)
            .readValues(file.toFile())) {
            return List.copyOf(documents.readAll());
        }
        catch (IOException ex) {
            throw new UncheckedIOException(file.toString(), ex);
        }
    }

    List<String> listedFiles() {
        return List.copyOf(byFile.keySet());
    }

    Map<String, List<KubernetesResource>> byFile() {
        return byFile;
    }

    List<HasMetadata> all() {
        return byFile.values()
            .stream()
            .flatMap(List::stream)
            .filter(HasMetadata.class::isInstance)
            .map(HasMetadata.class::cast)
            .toList();
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return all().stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T named(Class<T> type, String name) {
        List<T> found = all(type).stream().filter(resource -> name.equals(resource.getMetadata().getName())).toList();
        assertThat(found).as("%s %s", type.getSimpleName(), name).hasSize(1);
        return found.get(0);
    }

    /** The Deployments and StatefulSets: everything that runs pods. */
    List<HasMetadata> workloads() {
        return all().stream()
            .filter(resource -> resource instanceof Deployment || resource instanceof StatefulSet)
            .toList();
    }

    /**
     * The pods a workload runs when nothing is scaling it: an autoscaler's minimum where
     * one owns the count.
     */
    int replicas(HasMetadata workload) {
        Integer replicas = (workload instanceof Deployment deployment) ? deployment.getSpec().getReplicas()
                : ((StatefulSet) workload).getSpec().getReplicas();
        if (replicas != null) {
            return replicas;
        }
        return all(HorizontalPodAutoscaler.class).stream()
            .filter(hpa -> hpa.getSpec().getScaleTargetRef().getKind().equals(workload.getKind()))
            .filter(hpa -> hpa.getSpec().getScaleTargetRef().getName().equals(workload.getMetadata().getName()))
            .map(hpa -> hpa.getSpec().getMinReplicas())
            .findFirst()
            .orElse(1);
    }

}
