package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;

/**
 * What a Deployment or StatefulSet says about its pods, and how selectors and named ports
 * find them.
 */
final class Pods {

    private Pods() {
    }

    static PodTemplateSpec podTemplate(HasMetadata workload) {
        if (workload instanceof Deployment deployment) {
            return deployment.getSpec().getTemplate();
        }
        return ((StatefulSet) workload).getSpec().getTemplate();
    }

    static LabelSelector selector(HasMetadata workload) {
        if (workload instanceof Deployment deployment) {
            return deployment.getSpec().getSelector();
        }
        return ((StatefulSet) workload).getSpec().getSelector();
    }

    static Container onlyContainer(HasMetadata workload) {
        List<Container> containers = podTemplate(workload).getSpec().getContainers();
        assertThat(containers).as("containers of %s", workload.getMetadata().getName()).hasSize(1);
        return containers.get(0);
    }

    /**
     * A container port given by number or by name, as probes and Services may give it.
     */
    static int port(Container container, IntOrString port) {
        if (port.getIntVal() != null) {
            return port.getIntVal();
        }
        return container.getPorts()
            .stream()
            .filter(candidate -> port.getStrVal().equals(candidate.getName()))
            .mapToInt(ContainerPort::getContainerPort)
            .findFirst()
            .orElseThrow(() -> new AssertionError("no port " + port.getStrVal() + " in " + container.getName()));
    }

    /**
     * Whether a selector picks pods with these labels; the manifests use matchLabels
     * only.
     */
    static boolean selects(LabelSelector selector, Map<String, String> labels) {
        assertThat(selector.getMatchExpressions()).as("matchExpressions").isNullOrEmpty();
        return selects(selector.getMatchLabels(), labels);
    }

    static boolean selects(Map<String, String> matchLabels, Map<String, String> labels) {
        return matchLabels != null && !matchLabels.isEmpty() && labels.entrySet().containsAll(matchLabels.entrySet());
    }

}
