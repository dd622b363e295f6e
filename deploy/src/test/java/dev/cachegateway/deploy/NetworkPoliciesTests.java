package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.cachegateway.deploy.NetworkPolicies.Namespace;
import dev.cachegateway.deploy.NetworkPolicies.Source;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Who may talk to whom, found by evaluating the policies in k8s/ for the real pods and
 * ports; and each check, run on a copy of the policies broken in one way, fails.
 */
class NetworkPoliciesTests {

    /**
     * The label an operator puts on a pod that may write to memcached (srcache, an
     * application).
     */
    static final String WRITER = "memcached-gateway/memcached-writer";

    /**
     * The label an operator puts on a namespace or a pod that may reach the gateway's
     * management port.
     */
    static final String MONITORING = "memcached-gateway/monitoring";

    static final Namespace OTHER = Namespace.named("other");

    static final Namespace MONITORING_NAMESPACE = Namespace.named("monitoring").labelled(MONITORING, "true");

    final Manifests manifests = Manifests.load();

    final List<NetworkPolicy> policies = new ArrayList<>(manifests.all(NetworkPolicy.class));

    final Deployment gateway = manifests.named(Deployment.class, "gateway");

    final StatefulSet memcached = manifests.named(StatefulSet.class, "memcached");

    final Deployment commentsService = manifests.named(Deployment.class, "comments-service");

    @Test
    void gatewayReachesMemcached() {
        assertThat(reaches(pod(gateway), memcached, "memcached")).isTrue();
    }

    @Test
    void commentsServiceDoesNotReachMemcached() {
        assertThat(reaches(pod(commentsService), memcached, "memcached")).isFalse();
    }

    @Test
    void aPodLabelledAsAWriterReachesMemcached() {
        assertThat(reaches(labelled(WRITER, NetworkPolicies.HOME), memcached, "memcached")).isTrue();
    }

    @Test
    void noOtherPodReachesMemcached() {
        assertThat(reaches(unlabelled(NetworkPolicies.HOME), memcached, "memcached")).as("unlabelled").isFalse();
        assertThat(reaches(unlabelled(OTHER), memcached, "memcached")).as("another namespace").isFalse();
        // The writer label counts in the application's namespace only: anyone may label a
        // pod of their own.
        assertThat(reaches(labelled(WRITER, OTHER), memcached, "memcached")).as("a writer elsewhere").isFalse();
        assertThat(reaches(unlabelled(MONITORING_NAMESPACE), memcached, "memcached")).as("monitoring").isFalse();
        assertThat(reaches(labelled(MONITORING, NetworkPolicies.HOME), memcached, "memcached")).as("a monitoring pod")
            .isFalse();
    }

    @Test
    void gatewayReachesCommentsService() {
        assertThat(reaches(pod(gateway), commentsService, "http")).isTrue();
    }

    @Test
    void noOtherPodReachesCommentsService() {
        assertThat(reaches(pod(memcached), commentsService, "http")).as("memcached").isFalse();
        assertThat(reaches(labelled(WRITER, NetworkPolicies.HOME), commentsService, "http")).as("a writer").isFalse();
        assertThat(reaches(unlabelled(NetworkPolicies.HOME), commentsService, "http")).as("unlabelled").isFalse();
        assertThat(reaches(unlabelled(OTHER), commentsService, "http")).as("another namespace").isFalse();
    }

    @Test
    void anyPodReachesTheGatewaysPublicPort() {
        assertThat(reaches(unlabelled(NetworkPolicies.HOME), gateway, "http")).as("unlabelled").isTrue();
        assertThat(reaches(unlabelled(OTHER), gateway, "http")).as("another namespace").isTrue();
        assertThat(reaches(pod(commentsService), gateway, "http")).as("comments-service").isTrue();
    }

    @Test
    void noOtherPodReachesTheManagementPort() {
        assertThat(reaches(unlabelled(NetworkPolicies.HOME), gateway, "management")).as("unlabelled").isFalse();
        assertThat(reaches(unlabelled(OTHER), gateway, "management")).as("another namespace").isFalse();
        assertThat(reaches(pod(commentsService), gateway, "management")).as("comments-service").isFalse();
        assertThat(reaches(pod(memcached), gateway, "management")).as("memcached").isFalse();
        assertThat(reaches(labelled(WRITER, NetworkPolicies.HOME), gateway, "management")).as("a writer").isFalse();
        // A pod's label counts in the application's namespace only; elsewhere the
        // namespace must carry it.
        assertThat(reaches(labelled(MONITORING, OTHER), gateway, "management")).as("a labelled pod elsewhere")
            .isFalse();
    }

    @Test
    void aMonitoringNamespaceOrPodReachesTheManagementPort() {
        assertThat(reaches(unlabelled(MONITORING_NAMESPACE), gateway, "management")).as("namespace").isTrue();
        assertThat(reaches(labelled(MONITORING, NetworkPolicies.HOME), gateway, "management")).as("pod").isTrue();
    }

    @Test
    void aNewPodOfTheApplicationTakesNoConnectionsUntilAPolicyLetsThemIn() {
        Map<String, String> labels = new HashMap<>(Pods.podTemplate(gateway).getMetadata().getLabels());
        labels.put("app.kubernetes.io/name", "newcomer");
        ContainerPort port = new ContainerPort(9000, null, null, "http", "TCP");
        assertThat(new NetworkPolicies(policies).allowsIngress(pod(gateway), labels, port)).isFalse();
    }

    @Test
    void noPolicyRestrictsEgress() {
        // The gateway resolves the memcached names every few seconds; a policy that
        // isolated egress would cut DNS.
        assertThat(policies).isNotEmpty().allSatisfy(policy -> {
            assertThat(policy.getSpec().getPolicyTypes()).as(policy.getMetadata().getName()).containsExactly("Ingress");
            assertThat(policy.getSpec().getEgress()).as(policy.getMetadata().getName()).isNullOrEmpty();
        });
    }

    @Test
    void theOperatorsLabelsAreTheOnesTheReadmeGives() {
        Map<String, String> labels = new HashMap<>();
        for (NetworkPolicy policy : policies) {
            for (NetworkPolicyIngressRule rule : policy.getSpec().getIngress()) {
                for (NetworkPolicyPeer peer : rule.getFrom()) {
                    Stream.of(peer.getPodSelector(), peer.getNamespaceSelector())
                        .filter(Objects::nonNull)
                        .forEach(selector -> labels.putAll(selector.getMatchLabels()));
                }
            }
        }
        labels.keySet().removeIf(label -> label.startsWith("app.kubernetes.io/"));
        assertThat(labels).isEqualTo(Map.of(WRITER, "true", MONITORING, "true"));
        labels.forEach((label, value) -> assertThat(RestrictedNamespaceTests.readme())
            .contains("`%s: \"%s\"`".formatted(label, value)));
    }

    @ParameterizedTest(name = "{0} fails when {1}")
    @MethodSource("breakages")
    void aPolicyBrokenInOneWayFailsItsCheck(String check, String breakage, Consumer<List<NetworkPolicy>> breakIt,
            Consumer<NetworkPoliciesTests> runCheck) {
        runCheck.accept(this);
        breakIt.accept(policies);
        assertThatThrownBy(() -> runCheck.accept(this)).isInstanceOf(AssertionError.class);
    }

    static Stream<Arguments> breakages() {
        return Stream.of(
                breakage("gatewayReachesMemcached", "the memcached policy names another port",
                        policies -> rule(policies, "memcached", 0).getPorts().get(0).setPort(new IntOrString(11212)),
                        NetworkPoliciesTests::gatewayReachesMemcached),
                breakage("commentsServiceDoesNotReachMemcached", "the memcached policy's from is removed",
                        policies -> rule(policies, "memcached", 0).setFrom(null),
                        NetworkPoliciesTests::commentsServiceDoesNotReachMemcached),
                breakage("commentsServiceDoesNotReachMemcached", "the gateway peer selects every pod",
                        policies -> peer(policies, "memcached", 0, 0).setPodSelector(new LabelSelector()),
                        NetworkPoliciesTests::commentsServiceDoesNotReachMemcached),
                breakage("aPodLabelledAsAWriterReachesMemcached", "the writer peer is removed",
                        policies -> rule(policies, "memcached", 0).getFrom().remove(1),
                        NetworkPoliciesTests::aPodLabelledAsAWriterReachesMemcached),
                breakage("noOtherPodReachesMemcached", "the writer peer selects every pod",
                        policies -> peer(policies, "memcached", 0, 1).setPodSelector(new LabelSelector()),
                        NetworkPoliciesTests::noOtherPodReachesMemcached),
                breakage("noOtherPodReachesMemcached", "the writer peer takes every namespace",
                        policies -> peer(policies, "memcached", 0, 1).setNamespaceSelector(new LabelSelector()),
                        NetworkPoliciesTests::noOtherPodReachesMemcached),
                breakage("gatewayReachesCommentsService", "the comments-service policy names another port",
                        policies -> rule(policies, "comments-service", 0).getPorts()
                            .get(0)
                            .setPort(new IntOrString(8080)),
                        NetworkPoliciesTests::gatewayReachesCommentsService),
                breakage("noOtherPodReachesCommentsService", "the comments-service policy's from is removed",
                        policies -> rule(policies, "comments-service", 0).setFrom(null),
                        NetworkPoliciesTests::noOtherPodReachesCommentsService),
                breakage("anyPodReachesTheGatewaysPublicPort", "the public rule is removed",
                        policies -> policy(policies, "gateway").getSpec().getIngress().remove(0),
                        NetworkPoliciesTests::anyPodReachesTheGatewaysPublicPort),
                breakage("anyPodReachesTheGatewaysPublicPort", "the public rule takes the gateway's own pods only",
                        policies -> rule(policies, "gateway", 0)
                            .setFrom(List.of(peer(Map.of("app.kubernetes.io/name", "gateway")))),
                        NetworkPoliciesTests::anyPodReachesTheGatewaysPublicPort),
                breakage("noOtherPodReachesTheManagementPort", "the public rule names no port, so every port",
                        policies -> rule(policies, "gateway", 0).setPorts(null),
                        NetworkPoliciesTests::noOtherPodReachesTheManagementPort),
                breakage("noOtherPodReachesTheManagementPort", "the monitoring pod peer takes every namespace",
                        policies -> peer(policies, "gateway", 1, 1).setNamespaceSelector(new LabelSelector()),
                        NetworkPoliciesTests::noOtherPodReachesTheManagementPort),
                breakage("aMonitoringNamespaceOrPodReachesTheManagementPort",
                        "the namespace and the pod are one peer, so both must match", policies -> {
                            NetworkPolicyIngressRule rule = rule(policies, "gateway", 1);
                            NetworkPolicyPeer both = rule.getFrom().get(0);
                            both.setPodSelector(rule.getFrom().get(1).getPodSelector());
                            rule.setFrom(List.of(both));
                        }, NetworkPoliciesTests::aMonitoringNamespaceOrPodReachesTheManagementPort),
                breakage("aMonitoringNamespaceOrPodReachesTheManagementPort", "the namespace peer is removed",
                        policies -> rule(policies, "gateway", 1).getFrom().remove(0),
                        NetworkPoliciesTests::aMonitoringNamespaceOrPodReachesTheManagementPort),
                breakage("aNewPodOfTheApplicationTakesNoConnectionsUntilAPolicyLetsThemIn",
                        "the default deny is removed",
                        policies -> policies.remove(policy(policies, "default-deny-ingress")),
                        NetworkPoliciesTests::aNewPodOfTheApplicationTakesNoConnectionsUntilAPolicyLetsThemIn),
                breakage("noPolicyRestrictsEgress", "the memcached policy isolates egress too",
                        policies -> policy(policies, "memcached").getSpec()
                            .setPolicyTypes(List.of("Ingress", "Egress")),
                        NetworkPoliciesTests::noPolicyRestrictsEgress));
    }

    private boolean reaches(Source from, HasMetadata to, String portName) {
        ContainerPort port = Pods.onlyContainer(to)
            .getPorts()
            .stream()
            .filter(candidate -> portName.equals(candidate.getName()))
            .findFirst()
            .orElseThrow(() -> new AssertionError(to.getMetadata().getName() + " has no port " + portName));
        return new NetworkPolicies(policies).allowsIngress(from, Pods.podTemplate(to).getMetadata().getLabels(), port);
    }

    private static Source pod(HasMetadata workload) {
        return new Source(Pods.podTemplate(workload).getMetadata().getLabels(), NetworkPolicies.HOME);
    }

    private static Source unlabelled(Namespace namespace) {
        return new Source(Map.of("app.kubernetes.io/name", "debug"), namespace);
    }

    private static Source labelled(String label, Namespace namespace) {
        return new Source(Map.of("app.kubernetes.io/name", "debug", label, "true"), namespace);
    }

    private static NetworkPolicy policy(List<NetworkPolicy> policies, String name) {
        return policies.stream()
            .filter(policy -> policy.getMetadata().getName().equals(name))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no policy " + name));
    }

    private static NetworkPolicyIngressRule rule(List<NetworkPolicy> policies, String name, int index) {
        return policy(policies, name).getSpec().getIngress().get(index);
    }

    private static NetworkPolicyPeer peer(List<NetworkPolicy> policies, String name, int rule, int index) {
        return rule(policies, name, rule).getFrom().get(index);
    }

    private static NetworkPolicyPeer peer(Map<String, String> podLabels) {
        NetworkPolicyPeer peer = new NetworkPolicyPeer();
        peer.setPodSelector(new LabelSelector(null, podLabels));
        return peer;
    }

    private static Arguments breakage(String check, String breakage, Consumer<List<NetworkPolicy>> breakIt,
            Consumer<NetworkPoliciesTests> runCheck) {
        return Arguments.of(check, breakage, breakIt, runCheck);
    }

}
