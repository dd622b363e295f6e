package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import org.junit.jupiter.api.Test;

class ServicesTests {

    final Manifests manifests = Manifests.load();

    @Test
    void everyServiceSelectsThePodsOfTheWorkloadOfItsName() {
        for (Service service : manifests.all(Service.class)) {
            String name = service.getMetadata().getName();
            HasMetadata workload = manifests.workloads()
                .stream()
                .filter(candidate -> candidate.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no workload for Service " + name));
            assertThat(
                    Pods.selects(service.getSpec().getSelector(), Pods.podTemplate(workload).getMetadata().getLabels()))
                .as(name)
                .isTrue();
            // A Service that also picked another workload's pods would send it requests
            // it cannot answer.
            assertThat(manifests.workloads()).filteredOn(other -> other != workload)
                .noneMatch(other -> Pods.selects(service.getSpec().getSelector(),
                        Pods.podTemplate(other).getMetadata().getLabels()));
        }
    }

    @Test
    void everyServicePortReachesAContainerPort() {
        for (Service service : manifests.all(Service.class)) {
            HasMetadata workload = manifests.workloads()
                .stream()
                .filter(candidate -> Pods.selects(service.getSpec().getSelector(),
                        Pods.podTemplate(candidate).getMetadata().getLabels()))
                .findFirst()
                .orElseThrow(() -> new AssertionError(service.getMetadata().getName() + " selects no pods"));
            service.getSpec()
                .getPorts()
                .forEach(port -> assertThat(Pods.onlyContainer(workload).getPorts())
                    .extracting(container -> container.getContainerPort())
                    .as("%s port %s", service.getMetadata().getName(), port.getName())
                    .contains(Pods.port(Pods.onlyContainer(workload), port.getTargetPort())));
        }
    }

}
