package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import org.junit.jupiter.api.Test;

class GatewayManifestsTests {

    final Manifests manifests = Manifests.load();

    final Deployment gateway = manifests.named(Deployment.class, "gateway");

    @Test
    void memcachedServersNameEveryStatefulSetReplicaByItsStableName() {
        StatefulSet memcached = manifests.named(StatefulSet.class, "memcached");
        int port = manifests.named(Service.class, memcached.getSpec().getServiceName())
            .getSpec()
            .getPorts()
            .get(0)
            .getPort();
        // <pod>.<governing service> resolves to the pod wherever it runs; an address
        // would not survive a move.
        List<String> expected = IntStream.range(0, memcached.getSpec().getReplicas())
            .mapToObj(i -> "%s-%d.%s:%d".formatted(memcached.getMetadata().getName(), i,
                    memcached.getSpec().getServiceName(), port))
            .toList();
        assertThat(Arrays.asList(env("MEMCACHED_SERVERS").split(","))).containsExactlyElementsOf(expected);
    }

    @Test
    void commentsServiceUriIsTheCommentsServiceAndItsPort() {
        URI uri = URI.create(env("COMMENTS_SERVICE_URI"));
        Service service = manifests.named(Service.class, uri.getHost());
        assertThat(service.getSpec().getPorts()).extracting(port -> port.getPort()).contains(uri.getPort());
    }

    @Test
    void purgeTokenComesFromASecretNeverFromTheManifest() {
        EnvVar token = container().getEnv()
            .stream()
            .filter(env -> env.getName().equals("MEMCACHED_CACHE_PURGE_TOKEN"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("gateway has no MEMCACHED_CACHE_PURGE_TOKEN"));
        assertThat(token.getValue()).isNull();
        assertThat(token.getValueFrom().getSecretKeyRef().getName()).isEqualTo("gateway-purge-token");
        assertThat(token.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("token");
    }

    @Test
    void autoscalerScalesTheGatewayDeploymentOnCpu() {
        HorizontalPodAutoscaler hpa = manifests.named(HorizontalPodAutoscaler.class, "gateway");
        assertThat(hpa.getSpec().getScaleTargetRef().getApiVersion()).isEqualTo(gateway.getApiVersion());
        assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo(gateway.getKind());
        assertThat(hpa.getSpec().getScaleTargetRef().getName()).isEqualTo(gateway.getMetadata().getName());
        assertThat(hpa.getSpec().getMinReplicas()).isGreaterThanOrEqualTo(2);
        assertThat(hpa.getSpec().getMetrics()).singleElement().satisfies(metric -> {
            assertThat(metric.getType()).isEqualTo("Resource");
            assertThat(metric.getResource().getName()).isEqualTo("cpu");
            assertThat(metric.getResource().getTarget().getType()).isEqualTo("Utilization");
        });
        // Utilization is measured against the request; without one the autoscaler does
        // nothing.
        assertThat(container().getResources().getRequests()).containsKey("cpu");
    }

    @Test
    void replicaCountIsLeftToTheAutoscaler() {
        // kubectl apply would otherwise set the count back on every run, dropping pods
        // the autoscaler added.
        assertThat(gateway.getSpec().getReplicas()).isNull();
        assertThat(manifests.replicas(gateway)).isEqualTo(2);
    }

    private String env(String name) {
        return container().getEnv()
            .stream()
            .filter(env -> env.getName().equals(name))
            .map(EnvVar::getValue)
            .findFirst()
            .orElseThrow(() -> new AssertionError("gateway has no " + name));
    }

    private Container container() {
        return Pods.onlyContainer(gateway);
    }

}
