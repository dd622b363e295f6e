package dev.cachegateway.deploy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * The targets Prometheus's Kubernetes discovery (role pod) makes of a running pod of a
 * workload, before relabelling: one per container port, with the pod's labels and
 * annotations as {@code __meta_kubernetes_pod_*} labels
 * (prometheus.io/docs/prometheus/latest/configuration/configuration/#pod).
 */
final class PodTargets {

    private PodTargets() {
    }

    /** The targets of a pod of the workload at this address, in this phase. */
    static List<Map<String, String>> of(HasMetadata workload, String ip, String phase) {
        ObjectMeta pod = Pods.podTemplate(workload).getMetadata();
        Map<String, String> common = new HashMap<>();
        common.put("job", "kubernetes-pods");
        common.put("__scheme__", "http");
        // The job's metrics_path, which the path annotation must replace.
        common.put("__metrics_path__", "/metrics");
        common.put("__meta_kubernetes_namespace", NetworkPolicies.HOME.name());
        common.put("__meta_kubernetes_pod_name", workload.getMetadata().getName() + "-0");
        common.put("__meta_kubernetes_pod_ip", ip);
        common.put("__meta_kubernetes_pod_phase", phase);
        meta(common, "label", pod.getLabels());
        meta(common, "annotation", pod.getAnnotations());
        List<Map<String, String>> targets = new ArrayList<>();
        for (ContainerPort port : Pods.onlyContainer(workload).getPorts()) {
            Map<String, String> target = new HashMap<>(common);
            target.put("__address__", address(ip, port.getContainerPort()));
            target.put("__meta_kubernetes_pod_container_port_number", String.valueOf(port.getContainerPort()));
            target.put("__meta_kubernetes_pod_container_port_name", port.getName());
            targets.add(target);
        }
        return targets;
    }

    /** host:port, with an IPv6 address in brackets. */
    static String address(String ip, int port) {
        return (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port;
    }

    private static void meta(Map<String, String> target, String kind, Map<String, String> values) {
        if (values == null) {
            return;
        }
        values.forEach((name, value) -> {
            // Prometheus makes a label name of any name by turning what a label name
            // cannot hold into '_': prometheus.io/port becomes prometheus_io_port.
            String label = name.replaceAll("[^a-zA-Z0-9_]", "_");
            target.put("__meta_kubernetes_pod_" + kind + "_" + label, value);
            target.put("__meta_kubernetes_pod_" + kind + "present_" + label, "true");
        });
    }

}
