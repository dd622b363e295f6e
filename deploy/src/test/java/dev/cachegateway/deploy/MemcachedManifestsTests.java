package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import org.junit.jupiter.api.Test;

class MemcachedManifestsTests {

    final Manifests manifests = Manifests.load();

    final StatefulSet memcached = manifests.named(StatefulSet.class, "memcached");

    @Test
    void serviceIsHeadlessAndPublishesPodsBeforeTheyAreReady() {
        Service service = manifests.named(Service.class, memcached.getSpec().getServiceName());
        assertThat(service.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(service.getSpec().getPublishNotReadyAddresses()).isTrue();
        assertThat(Pods.selects(service.getSpec().getSelector(),
                memcached.getSpec().getTemplate().getMetadata().getLabels()))
            .isTrue();
        assertThat(service.getSpec().getPorts()).singleElement()
            .satisfies(port -> assertThat(Pods.port(container(), port.getTargetPort())).isEqualTo(port.getPort())
                .isEqualTo(11211));
    }

    @Test
    void memoryLimitLeavesRoomAboveTheItemMemory() {
        List<String> command = container().getCommand();
        assertThat(command).first().isEqualTo("memcached");
        long itemMemory = Long.parseLong(command.get(command.indexOf("-m") + 1)) << 20;
        long limit = Quantity.getAmountInBytes(container().getResources().getLimits().get("memory")).longValueExact();
        // -m bounds the items only: connection buffers, the hash table and the threads
        // come on top.
        assertThat(limit).isGreaterThanOrEqualTo(itemMemory + (32L << 20));
    }

    @Test
    void replicasPreferDifferentNodesWithoutRequiringThem() {
        PodAntiAffinity antiAffinity = memcached.getSpec().getTemplate().getSpec().getAffinity().getPodAntiAffinity();
        // Required would leave pods pending on a cluster with fewer nodes than replicas.
        assertThat(antiAffinity.getRequiredDuringSchedulingIgnoredDuringExecution()).isNullOrEmpty();
        assertThat(antiAffinity.getPreferredDuringSchedulingIgnoredDuringExecution()).singleElement()
            .satisfies(term -> {
                assertThat(term.getPodAffinityTerm().getTopologyKey()).isEqualTo("kubernetes.io/hostname");
                assertThat(Pods.selects(term.getPodAffinityTerm().getLabelSelector(),
                        memcached.getSpec().getTemplate().getMetadata().getLabels()))
                    .isTrue();
            });
    }

    private Container container() {
        return Pods.onlyContainer(memcached);
    }

}
