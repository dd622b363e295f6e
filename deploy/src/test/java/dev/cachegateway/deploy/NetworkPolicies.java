package dev.cachegateway.deploy;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;

/**
 * What the API says NetworkPolicy objects let in
 * (kubernetes.io/docs/concepts/services-networking/network-policies), evaluated for
 * connections between pods: a pod that no policy selects for ingress takes every
 * connection; one that some do takes a connection that a rule of at least one of them
 * allows. The policies live in the application's namespace, {@link #HOME}, as kubectl
 * apply puts them. Not modelled: ipBlock peers (the manifests use none; a policy with one
 * fails the evaluation) and traffic from the node, which the API leaves to the network
 * plugin.
 */
final class NetworkPolicies {

    /** The namespace the application and its policies are applied to. */
    static final Namespace HOME = Namespace.named("shop");

    /**
     * A namespace as a policy's namespaceSelector sees it: the API server labels each
     * with its own name.
     */
    record Namespace(String name, Map<String, String> labels) {

        static Namespace named(String name) {
            return new Namespace(name, Map.of("kubernetes.io/metadata.name", name));
        }

        Namespace labelled(String key, String value) {
            return new Namespace(name, Map.of("kubernetes.io/metadata.name", name, key, value));
        }
    }

    /** A pod that opens a connection. */
    record Source(Map<String, String> labels, Namespace namespace) {
    }

    private final List<NetworkPolicy> policies;

    NetworkPolicies(List<NetworkPolicy> policies) {
        for (NetworkPolicy policy : policies) {
            if (policy.getSpec().getPodSelector() == null) {
                throw new AssertionError("policy " + policy.getMetadata().getName() + " has no podSelector");
            }
            if (policy.getMetadata().getNamespace() != null) {
                throw new AssertionError("policy " + policy.getMetadata().getName()
                        + " names its namespace; the application's pods are wherever kubectl applies them");
            }
        }
        this.policies = List.copyOf(policies);
    }

    /**
     * Whether a connection from the source to this port of a pod (in HOME) with these
     * labels gets in.
     */
    boolean allowsIngress(Source from, Map<String, String> toLabels, ContainerPort to) {
        List<NetworkPolicy> selecting = policies.stream()
            .filter(policy -> appliesToIngress(policy) && selects(policy.getSpec().getPodSelector(), toLabels))
            .toList();
        if (selecting.isEmpty()) {
            return true;
        }
        return selecting.stream()
            .flatMap(policy -> list(policy.getSpec().getIngress()).stream())
            .anyMatch(rule -> allows(rule, from, to));
    }

    /**
     * Whether a policy isolates the pods it selects for ingress: when it says so, or says
     * nothing of types.
     */
    static boolean appliesToIngress(NetworkPolicy policy) {
        List<String> types = list(policy.getSpec().getPolicyTypes());
        return types.isEmpty() || types.contains("Ingress");
    }

    private static boolean allows(NetworkPolicyIngressRule rule, Source from, ContainerPort to) {
        // An absent or empty list in a rule matches everything: every source, every port.
        boolean fromMatches = list(rule.getFrom()).isEmpty()
                || list(rule.getFrom()).stream().anyMatch(peer -> matches(peer, from));
        boolean portMatches = list(rule.getPorts()).isEmpty()
                || list(rule.getPorts()).stream().anyMatch(port -> matches(port, to));
        return fromMatches && portMatches;
    }

    private static boolean matches(NetworkPolicyPeer peer, Source from) {
        if (peer.getIpBlock() != null) {
            throw new AssertionError("ipBlock peers are not evaluated here");
        }
        if (peer.getPodSelector() == null && peer.getNamespaceSelector() == null) {
            throw new AssertionError("a peer must select pods, namespaces or both; the API rejects an empty one");
        }
        // Without a namespaceSelector a podSelector picks pods of the policy's own
        // namespace; with one, of the namespaces it selects, and both must match.
        boolean namespaceMatches = peer.getNamespaceSelector() == null ? from.namespace().equals(HOME)
                : selects(peer.getNamespaceSelector(), from.namespace().labels());
        boolean podMatches = peer.getPodSelector() == null || selects(peer.getPodSelector(), from.labels());
        return namespaceMatches && podMatches;
    }

    private static boolean matches(NetworkPolicyPort port, ContainerPort to) {
        String protocol = port.getProtocol() == null ? "TCP" : port.getProtocol();
        String toProtocol = to.getProtocol() == null ? "TCP" : to.getProtocol();
        if (!protocol.equals(toProtocol)) {
            return false;
        }
        IntOrString number = port.getPort();
        if (number == null) {
            return true;
        }
        if (number.getStrVal() != null) {
            return number.getStrVal().equals(to.getName());
        }
        int last = port.getEndPort() == null ? number.getIntVal() : port.getEndPort();
        return number.getIntVal() <= to.getContainerPort() && to.getContainerPort() <= last;
    }

    /**
     * A label selector as the API reads it in a policy: an empty one selects everything.
     */
    static boolean selects(LabelSelector selector, Map<String, String> labels) {
        for (Map.Entry<String, String> required : map(selector.getMatchLabels()).entrySet()) {
            if (!required.getValue().equals(labels.get(required.getKey()))) {
                return false;
            }
        }
        for (LabelSelectorRequirement requirement : list(selector.getMatchExpressions())) {
            String value = labels.get(requirement.getKey());
            boolean matches = switch (requirement.getOperator()) {
                case "In" -> value != null && requirement.getValues().contains(value);
                case "NotIn" -> value == null || !requirement.getValues().contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> throw new AssertionError("unknown operator " + requirement.getOperator());
            };
            if (!matches) {
                return false;
            }
        }
        return true;
    }

    private static <T> List<T> list(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static Map<String, String> map(Map<String, String> map) {
        return map == null ? Map.of() : map;
    }

}
