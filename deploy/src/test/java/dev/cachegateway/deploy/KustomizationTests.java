package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;

class KustomizationTests {

    /** The kinds the manifests use, at the API versions current clusters serve. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of("Service", Service.class, "Deployment",
            Deployment.class, "StatefulSet", StatefulSet.class, "PodDisruptionBudget", PodDisruptionBudget.class,
            "HorizontalPodAutoscaler", HorizontalPodAutoscaler.class, "NetworkPolicy", NetworkPolicy.class);

    final Manifests manifests = Manifests.load();

    @Test
    void listsEveryManifestInTheDirectory() {
        assertThat(manifests.listedFiles()).containsExactlyInAnyOrderElementsOf(Manifests.filesInDirectory());
    }

    @Test
    void everyManifestIsATypedObjectOfAKnownKindAndVersion() {
        manifests.byFile().forEach((file, resources) -> {
            assertThat(resources).as(file).isNotEmpty();
            for (KubernetesResource resource : resources) {
                // An apiVersion or kind that the Kubernetes API does not have reads as a
                // generic resource.
                assertThat(resource).as(file)
                    .isNotInstanceOf(GenericKubernetesResource.class)
                    .isInstanceOf(HasMetadata.class);
                HasMetadata object = (HasMetadata) resource;
                assertThat(object).as("%s: %s", file, object.getKind()).isInstanceOf(KINDS.get(object.getKind()));
                assertThat(object.getApiVersion()).as(file).isEqualTo(HasMetadata.getApiVersion(object.getClass()));
                assertThat(object.getMetadata().getName()).as(file).isNotBlank();
            }
        });
    }

    @Test
    void everyManifestUsesOnlyFieldsItsKindHas() {
        manifests.byFile()
            .forEach((file, resources) -> resources
                .forEach(resource -> assertThat(UnknownFields.in(resource)).as(file).isEmpty()));
    }

    @Test
    void everyWorkloadSelectsItsOwnPodsAndNamesItsContainers() {
        for (HasMetadata workload : manifests.workloads()) {
            assertThat(Pods.selects(Pods.selector(workload), Pods.podTemplate(workload).getMetadata().getLabels()))
                .as("selector of %s matches its pod template", workload.getMetadata().getName())
                .isTrue();
            assertThat(Pods.podTemplate(workload).getSpec().getContainers()).isNotEmpty().allSatisfy(container -> {
                assertThat(container.getName()).isNotBlank();
                assertThat(container.getImage()).isNotBlank();
            });
        }
    }

    @Test
    void everyServiceDisruptionBudgetAndAutoscalerHasTheFieldsTheApiRequires() {
        assertThat(manifests.all(Service.class))
            .allSatisfy(service -> assertThat(service.getSpec().getPorts()).isNotEmpty()
                .allSatisfy(port -> assertThat(port.getPort()).isNotNull()));
        assertThat(manifests.all(PodDisruptionBudget.class)).allSatisfy(pdb -> {
            assertThat(pdb.getSpec().getSelector()).isNotNull();
            // One or the other, never both.
            assertThat(pdb.getSpec().getMinAvailable() == null).isNotEqualTo(pdb.getSpec().getMaxUnavailable() == null);
        });
        assertThat(manifests.all(HorizontalPodAutoscaler.class)).allSatisfy(hpa -> {
            assertThat(hpa.getSpec().getScaleTargetRef().getName()).isNotBlank();
            assertThat(hpa.getSpec().getMaxReplicas()).isGreaterThanOrEqualTo(hpa.getSpec().getMinReplicas());
        });
    }

    @Test
    void imagesAreTheOnesDockerComposeUses() {
        Compose compose = new Compose();
        for (HasMetadata workload : manifests.workloads()) {
            Container container = Pods.onlyContainer(workload);
            String name = workload.getMetadata().getName();
            assertThat(compose.image(name)).as("compose image of %s", name).contains(container.getImage());
        }
    }

}
