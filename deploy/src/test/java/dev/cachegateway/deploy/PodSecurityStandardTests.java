package dev.cachegateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import io.fabric8.kubernetes.api.model.AppArmorProfile;
import io.fabric8.kubernetes.api.model.ConfigMapVolumeSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.HostPathVolumeSource;
import io.fabric8.kubernetes.api.model.NFSVolumeSource;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.SELinuxOptions;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.WindowsSecurityContextOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every pod meets the restricted Pod Security Standard, so a namespace that enforces it
 * runs them all; and the check is not vacuous: each real pod, broken in one way, fails
 * it, naming the control it broke.
 */
class PodSecurityStandardTests {

    final Manifests manifests = Manifests.load();

    @Test
    void everyPodMeetsTheRestrictedStandard() {
        assertThat(manifests.workloads()).isNotEmpty();
        for (HasMetadata workload : manifests.workloads()) {
            assertThat(PodSecurityStandard.restrictedViolation(Pods.podTemplate(workload)))
                .as(workload.getMetadata().getName())
                .isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("breakages")
    void aPodBrokenInOneWayFailsNamingTheControl(String control, String breakage, Consumer<PodTemplateSpec> breakIt) {
        for (HasMetadata workload : manifests.workloads()) {
            PodTemplateSpec template = Pods.podTemplate(workload);
            breakIt.accept(template);
            assertThat(PodSecurityStandard.restrictedViolation(template)).as(workload.getMetadata().getName())
                .hasValueSatisfying(violation -> assertThat(violation).startsWith(control + ": "));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allowedChanges")
    void aPodChangedInAWayTheStandardAllowsStillMeetsIt(String change, Consumer<PodTemplateSpec> changeIt) {
        for (HasMetadata workload : manifests.workloads()) {
            PodTemplateSpec template = Pods.podTemplate(workload);
            changeIt.accept(template);
            assertThat(PodSecurityStandard.restrictedViolation(template)).as(workload.getMetadata().getName())
                .isEmpty();
        }
    }

    static Stream<Arguments> breakages() {
        return Stream.of(
                breakage("HostProcess", "the pod is a Windows host process",
                        template -> template.getSpec().getSecurityContext().setWindowsOptions(hostProcess())),
                breakage("HostProcess", "a container is a Windows host process",
                        template -> eachContext(template, context -> context.setWindowsOptions(hostProcess()))),
                breakage("Host Namespaces", "hostNetwork", template -> template.getSpec().setHostNetwork(true)),
                breakage("Host Namespaces", "hostPID", template -> template.getSpec().setHostPID(true)),
                breakage("Host Namespaces", "hostIPC", template -> template.getSpec().setHostIPC(true)),
                breakage("Privileged Containers", "privileged",
                        template -> eachContext(template, context -> context.setPrivileged(true))),
                breakage("Capabilities", "ALL no longer dropped",
                        template -> eachContext(template,
                                context -> context.getCapabilities().setDrop(List.of("NET_RAW")))),
                breakage("Capabilities", "no capabilities at all",
                        template -> eachContext(template, context -> context.setCapabilities(null))),
                breakage("Capabilities", "SYS_ADMIN added",
                        template -> eachContext(template,
                                context -> context.getCapabilities().setAdd(List.of("NET_BIND_SERVICE", "SYS_ADMIN")))),
                breakage("HostPath Volumes", "a hostPath volume",
                        template -> addVolume(template,
                                volume -> volume.setHostPath(new HostPathVolumeSource("/var/run", "Directory")))),
                breakage("Host Ports", "a hostPort",
                        template -> template.getSpec()
                            .getContainers()
                            .forEach(container -> container.getPorts().get(0).setHostPort(9000))),
                breakage("AppArmor", "the pod unconfined",
                        template -> template.getSpec()
                            .getSecurityContext()
                            .setAppArmorProfile(new AppArmorProfile(null, "Unconfined"))),
                breakage("AppArmor", "a container unconfined",
                        template -> eachContext(template,
                                context -> context.setAppArmorProfile(new AppArmorProfile(null, "Unconfined")))),
                breakage("AppArmor", "a container unconfined by its annotation",
                        template -> annotateAppArmor(template, "unconfined")),
                breakage("SELinux", "a container of type spc_t",
                        template -> eachContext(template,
                                context -> context.setSeLinuxOptions(new SELinuxOptions(null, null, "spc_t", null)))),
                breakage("SELinux", "the pod with an SELinux user",
                        template -> template.getSpec()
                            .getSecurityContext()
                            .setSeLinuxOptions(new SELinuxOptions(null, null, null, "system_u"))),
                breakage("/proc Mount Type", "an unmasked /proc",
                        template -> eachContext(template, context -> context.setProcMount("Unmasked"))),
                breakage("Seccomp", "the pod unconfined",
                        template -> template.getSpec()
                            .getSecurityContext()
                            .setSeccompProfile(new SeccompProfile(null, "Unconfined"))),
                breakage("Seccomp", "no profile for the pod or a container",
                        template -> template.getSpec().getSecurityContext().setSeccompProfile(null)),
                breakage("Seccomp", "a container unconfined",
                        template -> eachContext(template,
                                context -> context.setSeccompProfile(new SeccompProfile(null, "Unconfined")))),
                breakage("Sysctls", "an unsafe sysctl",
                        template -> template.getSpec()
                            .getSecurityContext()
                            .setSysctls(List.of(new Sysctl("kernel.msgmax", "65536")))),
                breakage("Volume Types", "an NFS volume",
                        template -> addVolume(template,
                                volume -> volume.setNfs(new NFSVolumeSource("/exports", false, "nfs.example.com")))),
                breakage("Privilege Escalation", "allowed",
                        template -> eachContext(template, context -> context.setAllowPrivilegeEscalation(true))),
                breakage("Privilege Escalation", "left to the default",
                        template -> eachContext(template, context -> context.setAllowPrivilegeEscalation(null))),
                breakage("Running as Non-root", "the pod may run as root",
                        template -> template.getSpec().getSecurityContext().setRunAsNonRoot(false)),
                breakage("Running as Non-root", "nothing says non-root",
                        template -> template.getSpec().getSecurityContext().setRunAsNonRoot(null)),
                breakage("Running as Non-root", "a container may run as root",
                        template -> eachContext(template, context -> context.setRunAsNonRoot(false))),
                breakage("Running as Non-root user", "the pod as user 0",
                        template -> template.getSpec().getSecurityContext().setRunAsUser(0L)),
                breakage("Running as Non-root user", "a container as user 0",
                        template -> eachContext(template, context -> context.setRunAsUser(0L))));
    }

    static Stream<Arguments> allowedChanges() {
        return Stream.of(
                Arguments.of("NET_BIND_SERVICE added",
                        (Consumer<PodTemplateSpec>) template -> eachContext(template,
                                context -> context.getCapabilities().setAdd(List.of("NET_BIND_SERVICE")))),
                Arguments.of("a safe sysctl",
                        (Consumer<PodTemplateSpec>) template -> template.getSpec()
                            .getSecurityContext()
                            .setSysctls(List.of(new Sysctl("net.ipv4.ip_local_port_range", "1024 65535")))),
                Arguments.of("seccomp per container instead of the pod", (Consumer<PodTemplateSpec>) template -> {
                    template.getSpec().getSecurityContext().setSeccompProfile(null);
                    eachContext(template,
                            context -> context.setSeccompProfile(new SeccompProfile(null, "RuntimeDefault")));
                }),
                Arguments.of("a Localhost seccomp profile",
                        (Consumer<PodTemplateSpec>) template -> template.getSpec()
                            .getSecurityContext()
                            .setSeccompProfile(new SeccompProfile("profiles/strict.json", "Localhost"))),
                Arguments.of("non-root per container instead of the pod", (Consumer<PodTemplateSpec>) template -> {
                    template.getSpec().getSecurityContext().setRunAsNonRoot(null);
                    eachContext(template, context -> context.setRunAsNonRoot(true));
                }),
                Arguments.of("a runtime/default AppArmor annotation",
                        (Consumer<PodTemplateSpec>) template -> annotateAppArmor(template, "runtime/default")),
                Arguments.of("a configMap volume", (Consumer<PodTemplateSpec>) template -> addVolume(template,
                        volume -> volume.setConfigMap(new ConfigMapVolumeSource(null, null, "settings", false)))));
    }

    private static Arguments breakage(String control, String breakage, Consumer<PodTemplateSpec> breakIt) {
        return Arguments.of(control, breakage, breakIt);
    }

    private static void eachContext(PodTemplateSpec template, Consumer<SecurityContext> change) {
        for (Container container : template.getSpec().getContainers()) {
            if (container.getSecurityContext() == null) {
                container.setSecurityContext(new SecurityContext());
            }
            change.accept(container.getSecurityContext());
        }
    }

    private static void addVolume(PodTemplateSpec template, Consumer<Volume> source) {
        Volume volume = new Volume();
        volume.setName("added");
        source.accept(volume);
        template.getSpec().getVolumes().add(volume);
    }

    private static void annotateAppArmor(PodTemplateSpec template, String profile) {
        Map<String, String> annotations = new LinkedHashMap<>();
        if (template.getMetadata().getAnnotations() != null) {
            annotations.putAll(template.getMetadata().getAnnotations());
        }
        for (Container container : template.getSpec().getContainers()) {
            annotations.put(PodSecurityStandard.APPARMOR_ANNOTATION + container.getName(), profile);
        }
        template.getMetadata().setAnnotations(annotations);
    }

    private static WindowsSecurityContextOptions hostProcess() {
        WindowsSecurityContextOptions options = new WindowsSecurityContextOptions();
        options.setHostProcess(true);
        return options;
    }

}
