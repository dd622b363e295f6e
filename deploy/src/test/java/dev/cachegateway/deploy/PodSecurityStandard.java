package dev.cachegateway.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import com.fasterxml.jackson.core.type.TypeReference;
import io.fabric8.kubernetes.api.model.AppArmorProfile;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.SELinuxOptions;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Sysctl;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.WindowsSecurityContextOptions;

/**
 * The restricted profile of the Pod Security Standards
 * (kubernetes.io/docs/concepts/security/pod-security-standards), which a namespace
 * labelled pod-security.kubernetes.io/enforce: restricted holds every pod to: its
 * baseline controls and its own, checked in the order the standard lists them. A
 * violation names the control it breaks, as the standard names it, and the field.
 */
final class PodSecurityStandard {

    /** The sysctls the baseline profile allows: those namespaced to the pod. */
    static final Set<String> SAFE_SYSCTLS = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
            "net.ipv4.ip_unprivileged_port_start", "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range",
            "net.ipv4.ip_local_reserved_ports", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes");

    /**
     * The volume sources the restricted profile allows: none of them reaches the node's
     * files or devices.
     */
    static final Set<String> ALLOWED_VOLUME_TYPES = Set.of("configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
            "persistentVolumeClaim", "projected", "secret");

    static final Set<String> ALLOWED_SELINUX_TYPES = Set.of("", "container_t", "container_init_t", "container_kvm_t",
            "container_engine_t");

    static final String APPARMOR_ANNOTATION = "container.apparmor.security.beta.kubernetes.io/";

    private static final TypeReference<Map<String, Object>> FIELDS = new TypeReference<>() {
    };

    private PodSecurityStandard() {
    }

    /**
     * The first control of the restricted profile that the pod breaks, or empty if it
     * meets them all.
     */
    static Optional<String> restrictedViolation(PodTemplateSpec template) {
        return new Check(template).first();
    }

    /**
     * A container, an init container or an ephemeral container: what the standard looks
     * at in each.
     */
    private record AnyContainer(String field, SecurityContext context, List<ContainerPort> ports) {

        <T> Optional<T> get(Function<SecurityContext, T> getter) {
            return Optional.ofNullable(context).map(getter);
        }
    }

    private static final class Check {

        private final PodSpec spec;

        private final PodSecurityContext pod;

        private final Map<String, String> annotations;

        private final List<AnyContainer> containers = new ArrayList<>();

        private final List<String> violations = new ArrayList<>();

        Check(PodTemplateSpec template) {
            spec = template.getSpec();
            pod = Objects.requireNonNullElseGet(spec.getSecurityContext(), PodSecurityContext::new);
            annotations = (template.getMetadata() == null || template.getMetadata().getAnnotations() == null) ? Map.of()
                    : template.getMetadata().getAnnotations();
            for (int i = 0; i < list(spec.getContainers()).size(); i++) {
                var container = spec.getContainers().get(i);
                containers.add(new AnyContainer("containers[" + i + "]", container.getSecurityContext(),
                        list(container.getPorts())));
            }
            for (int i = 0; i < list(spec.getInitContainers()).size(); i++) {
                var container = spec.getInitContainers().get(i);
                containers.add(new AnyContainer("initContainers[" + i + "]", container.getSecurityContext(),
                        list(container.getPorts())));
            }
            for (int i = 0; i < list(spec.getEphemeralContainers()).size(); i++) {
                var container = spec.getEphemeralContainers().get(i);
                containers.add(new AnyContainer("ephemeralContainers[" + i + "]", container.getSecurityContext(),
                        list(container.getPorts())));
            }
        }

        Optional<String> first() {
            hostProcess();
            hostNamespaces();
            privileged();
            capabilities();
            hostPathVolumes();
            hostPorts();
            appArmor();
            seLinux();
            procMount();
            seccomp();
            sysctls();
            volumeTypes();
            privilegeEscalation();
            runAsNonRoot();
            runAsUser();
            return violations.stream().findFirst();
        }

        private void fail(String control, String detail) {
            violations.add(control + ": " + detail);
        }

        private void hostProcess() {
            if (PodSecurityStandard.hostProcess(pod.getWindowsOptions())) {
                fail("HostProcess", "securityContext.windowsOptions.hostProcess is true");
            }
            for (AnyContainer container : containers) {
                if (container.get(SecurityContext::getWindowsOptions)
                    .map(PodSecurityStandard::hostProcess)
                    .orElse(false)) {
                    fail("HostProcess", container.field() + ".securityContext.windowsOptions.hostProcess is true");
                }
            }
        }

        private void hostNamespaces() {
            if (Boolean.TRUE.equals(spec.getHostNetwork())) {
                fail("Host Namespaces", "hostNetwork is true");
            }
            if (Boolean.TRUE.equals(spec.getHostPID())) {
                fail("Host Namespaces", "hostPID is true");
            }
            if (Boolean.TRUE.equals(spec.getHostIPC())) {
                fail("Host Namespaces", "hostIPC is true");
            }
        }

        private void privileged() {
            for (AnyContainer container : containers) {
                if (container.get(SecurityContext::getPrivileged).orElse(false)) {
                    fail("Privileged Containers", container.field() + ".securityContext.privileged is true");
                }
            }
        }

        private void capabilities() {
            for (AnyContainer container : containers) {
                Capabilities capabilities = container.get(SecurityContext::getCapabilities).orElse(null);
                List<String> drop = capabilities == null ? List.of() : list(capabilities.getDrop());
                List<String> add = capabilities == null ? List.of() : list(capabilities.getAdd());
                if (!drop.contains("ALL")) {
                    fail("Capabilities", container.field() + ".securityContext.capabilities.drop lacks ALL");
                }
                add.stream()
                    .filter(capability -> !capability.equals("NET_BIND_SERVICE"))
                    .forEach(capability -> fail("Capabilities",
                            container.field() + ".securityContext.capabilities.add has " + capability));
            }
        }

        private void hostPathVolumes() {
            for (Volume volume : list(spec.getVolumes())) {
                if (volume.getHostPath() != null) {
                    fail("HostPath Volumes", "volume " + volume.getName() + " is a hostPath");
                }
            }
        }

        private void hostPorts() {
            for (AnyContainer container : containers) {
                for (ContainerPort port : container.ports()) {
                    if (port.getHostPort() != null && port.getHostPort() != 0) {
                        fail("Host Ports", container.field() + " port " + port.getContainerPort() + " has hostPort "
                                + port.getHostPort());
                    }
                }
            }
        }

        private void appArmor() {
            if (unconfined(pod.getAppArmorProfile())) {
                fail("AppArmor", "securityContext.appArmorProfile.type is Unconfined");
            }
            for (AnyContainer container : containers) {
                if (container.get(SecurityContext::getAppArmorProfile)
                    .map(PodSecurityStandard::unconfined)
                    .orElse(false)) {
                    fail("AppArmor", container.field() + ".securityContext.appArmorProfile.type is Unconfined");
                }
            }
            annotations.forEach((name, value) -> {
                if (name.startsWith(APPARMOR_ANNOTATION) && !value.isEmpty() && !value.equals("runtime/default")
                        && !value.startsWith("localhost/")) {
                    fail("AppArmor", "annotation " + name + " is " + value);
                }
            });
        }

        private void seLinux() {
            seLinux("securityContext", pod.getSeLinuxOptions());
            for (AnyContainer container : containers) {
                seLinux(container.field() + ".securityContext",
                        container.get(SecurityContext::getSeLinuxOptions).orElse(null));
            }
        }

        private void seLinux(String field, SELinuxOptions options) {
            if (options == null) {
                return;
            }
            if (options.getType() != null && !ALLOWED_SELINUX_TYPES.contains(options.getType())) {
                fail("SELinux", field + ".seLinuxOptions.type is " + options.getType());
            }
            if (options.getUser() != null && !options.getUser().isEmpty()) {
                fail("SELinux", field + ".seLinuxOptions.user is set");
            }
            if (options.getRole() != null && !options.getRole().isEmpty()) {
                fail("SELinux", field + ".seLinuxOptions.role is set");
            }
        }

        private void procMount() {
            for (AnyContainer container : containers) {
                container.get(SecurityContext::getProcMount)
                    .filter(mount -> !mount.equals("Default"))
                    .ifPresent(mount -> fail("/proc Mount Type",
                            container.field() + ".securityContext.procMount is " + mount));
            }
        }

        private void seccomp() {
            String podType = seccompType(pod.getSeccompProfile());
            if (podType != null && !confined(podType)) {
                fail("Seccomp", "securityContext.seccompProfile.type is " + podType);
            }
            for (AnyContainer container : containers) {
                String own = container.get(SecurityContext::getSeccompProfile)
                    .map(PodSecurityStandard::seccompType)
                    .orElse(null);
                String type = own != null ? own : podType;
                if (type == null) {
                    fail("Seccomp", container.field() + " has no seccompProfile, nor has the pod");
                }
                else if (!confined(type)) {
                    fail("Seccomp", container.field() + ".securityContext.seccompProfile.type is " + type);
                }
            }
        }

        private void sysctls() {
            for (Sysctl sysctl : list(pod.getSysctls())) {
                if (!SAFE_SYSCTLS.contains(sysctl.getName())) {
                    fail("Sysctls", "securityContext.sysctls has " + sysctl.getName());
                }
            }
        }

        private void volumeTypes() {
            for (Volume volume : list(spec.getVolumes())) {
                Map<String, Object> fields = Manifests.YAML.convertValue(volume, FIELDS);
                fields.keySet()
                    .stream()
                    .filter(type -> !type.equals("name") && fields.get(type) != null)
                    .filter(type -> !ALLOWED_VOLUME_TYPES.contains(type))
                    .forEach(type -> fail("Volume Types", "volume " + volume.getName() + " is a " + type));
            }
        }

        private void privilegeEscalation() {
            for (AnyContainer container : containers) {
                if (!container.get(SecurityContext::getAllowPrivilegeEscalation).orElse(true).equals(false)) {
                    fail("Privilege Escalation",
                            container.field() + ".securityContext.allowPrivilegeEscalation is not false");
                }
            }
        }

        private void runAsNonRoot() {
            if (Boolean.FALSE.equals(pod.getRunAsNonRoot())) {
                fail("Running as Non-root", "securityContext.runAsNonRoot is false");
            }
            for (AnyContainer container : containers) {
                Boolean own = container.get(SecurityContext::getRunAsNonRoot).orElse(null);
                if (!Boolean.TRUE.equals(own != null ? own : pod.getRunAsNonRoot())) {
                    fail("Running as Non-root",
                            container.field() + " may run as root: runAsNonRoot is not true" + " for it or the pod");
                }
            }
        }

        private void runAsUser() {
            if (root(pod.getRunAsUser())) {
                fail("Running as Non-root user", "securityContext.runAsUser is 0");
            }
            for (AnyContainer container : containers) {
                if (container.get(SecurityContext::getRunAsUser).map(PodSecurityStandard::root).orElse(false)) {
                    fail("Running as Non-root user", container.field() + ".securityContext.runAsUser is 0");
                }
            }
        }

    }

    private static boolean root(Long user) {
        return user != null && user == 0;
    }

    private static <T> List<T> list(List<T> list) {
        return list == null ? List.of() : list;
    }

    private static boolean hostProcess(WindowsSecurityContextOptions options) {
        return options != null && Boolean.TRUE.equals(options.getHostProcess());
    }

    private static boolean unconfined(AppArmorProfile profile) {
        return profile != null && "Unconfined".equals(profile.getType());
    }

    private static String seccompType(SeccompProfile profile) {
        return profile == null ? null : profile.getType();
    }

    private static boolean confined(String seccompType) {
        return seccompType.equals("RuntimeDefault") || seccompType.equals("Localhost");
    }

}
