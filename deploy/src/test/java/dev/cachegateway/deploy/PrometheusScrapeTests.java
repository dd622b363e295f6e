package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cachegateway.deploy.NetworkPolicies.Namespace;
import dev.cachegateway.deploy.NetworkPolicies.Source;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Prometheus finds the gateway pods by their prometheus.io annotations: the port they
 * name is actuator's, the path is where actuator serves Prometheus's format, the network
 * policies let the monitoring namespace reach that port, and the scrape example in
 * prometheus/ makes one target of each pod on them. Each check also runs on a copy broken
 * in one way, which must fail.
 */
class PrometheusScrapeTests {

    static final Path SCRAPE_EXAMPLE = Path.of("prometheus/scrape-kubernetes.yml");

    static final String SCRAPE = "prometheus.io/scrape";

    static final String PORT = "prometheus.io/port";

    static final String PATH = "prometheus.io/path";

    static final String IPV4 = "10.1.0.5";

    static final String IPV6 = "fd00:10:1::5";

    final Manifests manifests = Manifests.load();

    final Deployment gateway = manifests.named(Deployment.class, "gateway");

    final SpringApp app = SpringApp.of("gateway");

    @Test
    void gatewayPodsAskToBeScrapedOnTheManagementPort() {
        assertThat(annotations()).containsEntry(SCRAPE, "true");
        assertThat(scrapedPort().getContainerPort()).isEqualTo(app.managementPort());
    }

    @Test
    void gatewayPodsNameThePathWhereActuatorServesPrometheus() {
        // Actuator serves an endpoint over HTTP only where it is exposed.
        String exposed = app.property("management.endpoints.web.exposure.include").orElse("health");
        assertThat(Arrays.asList(exposed.split(",\\s*"))).contains("prometheus");
        String basePath = app.property("management.endpoints.web.base-path").orElse("/actuator");
        assertThat(annotations()).containsEntry(PATH, basePath + "/prometheus");
    }

    @Test
    void theMonitoringNamespaceReachesTheScrapedPortAndNoOtherNamespaceDoes() {
        Map<String, String> prometheus = Map.of("app.kubernetes.io/name", "prometheus");
        assertThat(reaches(new Source(prometheus, NetworkPoliciesTests.MONITORING_NAMESPACE))).as("labelled").isTrue();
        // Its name alone does not make a namespace the one Prometheus runs in.
        assertThat(reaches(new Source(prometheus, Namespace.named("monitoring")))).as("unlabelled").isFalse();
        assertThat(reaches(new Source(prometheus, NetworkPoliciesTests.OTHER))).as("another").isFalse();
        assertThat(reaches(new Source(prometheus, NetworkPolicies.HOME))).as("the application's").isFalse();
    }

    @Test
    void scrapeExampleMakesOneTargetOfAGatewayPodOnTheAnnotatedPortAndPath() {
        for (String ip : List.of(IPV4, IPV6)) {
            // One discovered target per container port; both come out as the same one.
            assertThat(scrapeExample().targets(PodTargets.of(gateway, ip, "Running"))).as(ip)
                .singleElement()
                .satisfies(target -> assertThat(target)
                    .containsEntry("__address__", PodTargets.address(ip, app.managementPort()))
                    .containsEntry("__metrics_path__", annotations().get(PATH))
                    .containsEntry("namespace", NetworkPolicies.HOME.name())
                    .containsEntry("pod", "gateway-0")
                    .containsEntry("app_kubernetes_io_name", "gateway"));
        }
    }

    @Test
    void scrapeExampleLeavesOutPodsThatDoNotAskAndPodsThatHaveFinished() {
        Relabelling example = scrapeExample();
        assertThat(
                example.targets(PodTargets.of(manifests.named(Deployment.class, "comments-service"), IPV4, "Running")))
            .as("comments-service")
            .isEmpty();
        assertThat(example.targets(PodTargets.of(manifests.named(StatefulSet.class, "memcached"), IPV4, "Running")))
            .as("memcached")
            .isEmpty();
        assertThat(example.targets(PodTargets.of(gateway, IPV4, "Succeeded"))).as("a gateway that has finished")
            .isEmpty();
    }

    @ParameterizedTest(name = "{0} fails when {1}")
    @MethodSource("breakages")
    void aCopyBrokenInOneWayFailsItsCheck(String check, String breakage, Consumer<PrometheusScrapeTests> breakIt,
            Consumer<PrometheusScrapeTests> runCheck) {
        runCheck.accept(this);
        breakIt.accept(this);
        assertThatThrownBy(() -> runCheck.accept(this)).isInstanceOf(AssertionError.class);
    }

    static Stream<Arguments> breakages() {
        return Stream.of(
                breakage("gatewayPodsAskToBeScrapedOnTheManagementPort", "the port annotation names the public port",
                        tests -> tests.annotations().put(PORT, "8080"),
                        PrometheusScrapeTests::gatewayPodsAskToBeScrapedOnTheManagementPort),
                breakage("gatewayPodsAskToBeScrapedOnTheManagementPort", "the scrape annotation is gone",
                        tests -> tests.annotations().remove(SCRAPE),
                        PrometheusScrapeTests::gatewayPodsAskToBeScrapedOnTheManagementPort),
                breakage("gatewayPodsNameThePathWhereActuatorServesPrometheus", "the path is Prometheus's default",
                        tests -> tests.annotations().put(PATH, "/metrics"),
                        PrometheusScrapeTests::gatewayPodsNameThePathWhereActuatorServesPrometheus),
                breakage("theMonitoringNamespaceReachesTheScrapedPortAndNoOtherNamespaceDoes",
                        "the monitoring rule names the public port",
                        tests -> tests.gatewayPolicy()
                            .getSpec()
                            .getIngress()
                            .get(1)
                            .getPorts()
                            .get(0)
                            .setPort(new IntOrString(8080)),
                        PrometheusScrapeTests::theMonitoringNamespaceReachesTheScrapedPortAndNoOtherNamespaceDoes),
                breakage("scrapeExampleMakesOneTargetOfAGatewayPodOnTheAnnotatedPortAndPath",
                        "the scrape annotation is gone", tests -> tests.annotations().remove(SCRAPE),
                        PrometheusScrapeTests::scrapeExampleMakesOneTargetOfAGatewayPodOnTheAnnotatedPortAndPath),
                breakage("scrapeExampleLeavesOutPodsThatDoNotAskAndPodsThatHaveFinished",
                        "comments-service asks to be scraped",
                        tests -> Pods.podTemplate(tests.manifests.named(Deployment.class, "comments-service"))
                            .getMetadata()
                            .setAnnotations(Map.of(SCRAPE, "true")),
                        PrometheusScrapeTests::scrapeExampleLeavesOutPodsThatDoNotAskAndPodsThatHaveFinished));
    }

    private Map<String, String> annotations() {
        return Pods.podTemplate(gateway).getMetadata().getAnnotations();
    }

    private ContainerPort scrapedPort() {
        int port = Integer.parseInt(annotations().get(PORT));
        return Pods.onlyContainer(gateway)
            .getPorts()
            .stream()
            .filter(candidate -> candidate.getContainerPort() == port)
            .findFirst()
            .orElseThrow(() -> new AssertionError("the gateway container has no port " + port));
    }

    private boolean reaches(Source from) {
        return new NetworkPolicies(manifests.all(NetworkPolicy.class)).allowsIngress(from,
                Pods.podTemplate(gateway).getMetadata().getLabels(), scrapedPort());
    }

    private NetworkPolicy gatewayPolicy() {
        return manifests.named(NetworkPolicy.class, "gateway");
    }

    private static Relabelling scrapeExample() {
        JsonNode jobs = Manifests.readTree(SCRAPE_EXAMPLE).path("scrape_configs");
        assertThat(jobs).hasSize(1);
        JsonNode job = jobs.get(0);
        assertThat(job.path("kubernetes_sd_configs")).singleElement()
            .satisfies(discovery -> assertThat(discovery.path("role").asText()).isEqualTo("pod"));
        return new Relabelling(job.path("relabel_configs"));
    }

    private static Arguments breakage(String check, String breakage, Consumer<PrometheusScrapeTests> breakIt,
            Consumer<PrometheusScrapeTests> runCheck) {
        return Arguments.of(check, breakage, breakIt, runCheck);
    }

}
