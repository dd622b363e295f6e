package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

/** What every pod of the manifests must have, whichever application it runs. */
class PodsTests {

    final Manifests manifests = Manifests.load();

    @Test
    void everyPodRunsAsANonRootUserGivenByNumber() {
        for (HasMetadata workload : manifests.workloads()) {
            PodSecurityContext context = Pods.podTemplate(workload).getSpec().getSecurityContext();
            assertThat(context.getRunAsNonRoot()).as(workload.getMetadata().getName()).isTrue();
            // The images name their users; the kubelet refuses to start a named user
            // under runAsNonRoot.
            assertThat(context.getRunAsUser()).as(workload.getMetadata().getName()).isPositive();
        }
    }

    @Test
    void everyContainerHasAReadOnlyRootFilesystemAndNoWayToGainPrivileges() {
        for (HasMetadata workload : manifests.workloads()) {
            for (Container container : Pods.podTemplate(workload).getSpec().getContainers()) {
                assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).as(container.getName()).isTrue();
                assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).as(container.getName())
                    .isFalse();
                assertThat(container.getSecurityContext().getCapabilities().getDrop()).as(container.getName())
                    .contains("ALL");
            }
        }
    }

    @Test
    void everyContainerRequestsCpuAndMemoryAndIsLimitedToItsMemoryRequest() {
        for (HasMetadata workload : manifests.workloads()) {
            for (Container container : Pods.podTemplate(workload).getSpec().getContainers()) {
                var requests = container.getResources().getRequests();
                var limits = container.getResources().getLimits();
                assertThat(requests).as(container.getName()).containsKeys("cpu", "memory");
                assertThat(limits).as(container.getName()).containsKeys("cpu", "memory");
                // A pod that may grow past its request is the first to go when its node
                // runs short of memory.
                assertThat(Quantity.getAmountInBytes(limits.get("memory"))).as(container.getName())
                    .isEqualTo(Quantity.getAmountInBytes(requests.get("memory")));
            }
        }
    }

    @Test
    void everyContainerHasLivenessAndReadinessProbes() {
        for (HasMetadata workload : manifests.workloads()) {
            for (Container container : Pods.podTemplate(workload).getSpec().getContainers()) {
                assertThat(container.getLivenessProbe()).as(container.getName()).isNotNull();
                assertThat(container.getReadinessProbe()).as(container.getName()).isNotNull();
            }
        }
    }

}
