package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gateway and comments-service Deployments agree with each application's own
 * configuration.
 */
class SpringAppManifestsTests {

    static final String LIVENESS = "/actuator/health/liveness";

    static final String READINESS = "/actuator/health/readiness";

    final Manifests manifests = Manifests.load();

    @ParameterizedTest
    @ValueSource(strings = { "gateway", "comments-service" })
    void containerPortsAreTheServerAndManagementPorts(String name) {
        SpringApp app = SpringApp.of(name);
        List<Integer> ports = container(name).getPorts().stream().map(ContainerPort::getContainerPort).toList();
        assertThat(ports).containsExactlyInAnyOrderElementsOf(app.serverPort() == app.managementPort()
                ? List.of(app.serverPort()) : List.of(app.serverPort(), app.managementPort()));
    }

    @ParameterizedTest
    @ValueSource(strings = { "gateway", "comments-service" })
    void probesAreTheActuatorProbesOnTheManagementPort(String name) {
        SpringApp app = SpringApp.of(name);
        Container container = container(name);
        // Without management.endpoint.health.probes.enabled these paths answer 404 and
        // the pods never start.
        assertThat(app.probesEnabled()).as("probes enabled in %s's application.yml", name).isTrue();
        assertProbe(container, container.getStartupProbe(), LIVENESS, app.managementPort());
        assertProbe(container, container.getLivenessProbe(), LIVENESS, app.managementPort());
        assertProbe(container, container.getReadinessProbe(), READINESS, app.managementPort());
    }

    private static void assertProbe(Container container, Probe probe, String path, int port) {
        assertThat(probe).as("probe on %s", path).isNotNull();
        assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
        assertThat(Pods.port(container, probe.getHttpGet().getPort())).as("port of %s", path).isEqualTo(port);
    }

    @ParameterizedTest
    @ValueSource(strings = { "gateway", "comments-service" })
    void serviceSendsItsPortToTheServerPort(String name) {
        Service service = manifests.named(Service.class, name);
        int serverPort = SpringApp.of(name).serverPort();
        assertThat(service.getSpec().getPorts()).singleElement()
            .satisfies(port -> assertThat(Pods.port(container(name), port.getTargetPort())).isEqualTo(serverPort));
    }

    @ParameterizedTest
    @ValueSource(strings = { "gateway", "comments-service" })
    void podPausesBeforeSigtermAndOutlastsTheGracefulShutdown(String name) {
        List<String> preStop = container(name).getLifecycle().getPreStop().getExec().getCommand();
        assertThat(preStop).hasSize(2).first().isEqualTo("sleep");
        Duration pause = Duration.ofSeconds(Long.parseLong(preStop.get(1)));
        assertThat(pause).isPositive();
        // The grace period runs from the preStop hook on; past it the kubelet kills the
        // JVM mid-request.
        Duration grace = Duration.ofSeconds(pod(name).getTerminationGracePeriodSeconds());
        assertThat(grace).isGreaterThan(pause.plus(SpringApp.of(name).shutdownTimeout()));
    }

    @ParameterizedTest
    @ValueSource(strings = { "gateway", "comments-service" })
    void runsAsTheDockerfilesUserWithOnlyTmpWritable(String name) {
        assertThat(pod(name).getSecurityContext().getRunAsUser()).isEqualTo(SpringApp.of(name).dockerfileUid());
        Container container = container(name);
        assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        // The JVM (hsperfdata) and the web servers (Netty's native libraries) write to
        // /tmp.
        String volume = container.getVolumeMounts()
            .stream()
            .filter(mount -> mount.getMountPath().equals("/tmp"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no volume at /tmp"))
            .getName();
        assertThat(pod(name).getVolumes()).filteredOn(candidate -> candidate.getName().equals(volume))
            .singleElement()
            .extracting(Volume::getEmptyDir)
            .isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = { "gateway", "comments-service" })
    void memoryLimitIsComposesAndTheHeapFollowsIt(String name) {
        Container container = container(name);
        Quantity limit = container.getResources().getLimits().get("memory");
        assertThat(new Compose().memoryLimit(name)).contains(Quantity.getAmountInBytes(limit).longValueExact());
        // The Dockerfile sizes the heap as a share of the limit; an environment variable
        // would replace that.
        assertThat(SpringApp.of(name).dockerfile()).contains("MaxRAMPercentage")
            // What the JIT compiler frees goes back to the system instead of counting
            // against the limit.
            .contains("TrimNativeHeapInterval");
        assertThat(container.getEnv()).noneMatch(env -> env.getName().equals("JAVA_TOOL_OPTIONS"));
    }

    private PodSpec pod(String name) {
        return manifests.named(Deployment.class, name).getSpec().getTemplate().getSpec();
    }

    private Container container(String name) {
        return Pods.onlyContainer(manifests.named(Deployment.class, name));
    }

}
