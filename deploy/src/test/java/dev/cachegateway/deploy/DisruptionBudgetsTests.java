package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.api.Test;

class DisruptionBudgetsTests {

    final Manifests manifests = Manifests.load();

    @Test
    void everyWorkloadHasOneBudgetThatSelectsItsPods() {
        for (HasMetadata workload : manifests.workloads()) {
            assertThat(budgetsOf(workload)).as(workload.getMetadata().getName()).hasSize(1);
        }
    }

    @Test
    void everyBudgetLetsADrainEvictAPodAndKeepsOneServing() {
        for (HasMetadata workload : manifests.workloads()) {
            int replicas = manifests.replicas(workload);
            List<PodDisruptionBudget> budgets = budgetsOf(workload);
            assertThat(budgets).as(workload.getMetadata().getName()).hasSize(1);
            PodDisruptionBudget budget = budgets.get(0);
            // A budget that allows no eviction blocks node drains for good; one that
            // allows all allows an outage.
            int evictable = budget.getSpec().getMaxUnavailable() != null
                    ? pods(budget.getSpec().getMaxUnavailable(), replicas)
                    : replicas - pods(budget.getSpec().getMinAvailable(), replicas);
            assertThat(evictable).as("%s: pods a drain may evict of %d", workload.getMetadata().getName(), replicas)
                .isPositive()
                .isLessThan(replicas);
        }
    }

    private List<PodDisruptionBudget> budgetsOf(HasMetadata workload) {
        return manifests.all(PodDisruptionBudget.class)
            .stream()
            .filter(pdb -> Pods.selects(pdb.getSpec().getSelector(),
                    Pods.podTemplate(workload).getMetadata().getLabels()))
            .toList();
    }

    /** A count or a percentage of the replicas; Kubernetes rounds a percentage up. */
    private static int pods(IntOrString value, int replicas) {
        if (value.getIntVal() != null) {
            return value.getIntVal();
        }
        int percent = Integer.parseInt(value.getStrVal().replace("%", ""));
        return (percent * replicas + 99) / 100;
    }

}
