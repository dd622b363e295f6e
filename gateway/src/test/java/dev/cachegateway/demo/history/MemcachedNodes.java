package dev.cachegateway.demo.history;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse.ContainerState;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import org.testcontainers.containers.GenericContainer;

/**
 * The memcached servers of a history, each on a fixed host port, so that one that was
 * killed and started again comes back where the gateways left it; and the faults done to
 * them, through Docker.
 */
final class MemcachedNodes implements AutoCloseable {

    private final List<GenericContainer<?>> containers = new ArrayList<>();

    private final List<Integer> ports = new ArrayList<>();

    MemcachedNodes(int count) {
        for (int i = 0; i < count; i++) {
            int port = FreePort.next();
            GenericContainer<?> node = MemcachedContainer.create()
                .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig()
                    .withPortBindings(
                            new PortBinding(Ports.Binding.bindPort(port), ExposedPort.tcp(MemcachedContainer.PORT))));
            node.start();
            containers.add(node);
            ports.add(port);
        }
    }

    int size() {
        return containers.size();
    }

    /** As {@code memcached.servers} takes them. */
    String servers() {
        return IntStream.range(0, size())
            .mapToObj(i -> containers.get(i).getHost() + ":" + ports.get(i))
            .collect(Collectors.joining(","));
    }

    void flushAll() throws IOException {
        for (int i = 0; i < size(); i++) {
            try (MemcachedTextClient raw = client(i)) {
                raw.flushAll();
            }
        }
    }

    List<String> keys() throws IOException {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < size(); i++) {
            try (MemcachedTextClient raw = client(i)) {
                keys.addAll(raw.keys());
            }
        }
        return keys;
    }

    void pause(int node) {
        docker().pauseContainerCmd(id(node)).exec();
    }

    /** A SIGKILL: memcached loses everything it held. */
    void kill(int node) {
        docker().killContainerCmd(id(node)).exec();
    }

    /** Resumes a paused node, starts a killed one. */
    void heal(int node) {
        ContainerState state = docker().inspectContainerCmd(id(node)).exec().getState();
        if (Boolean.TRUE.equals(state.getPaused())) {
            docker().unpauseContainerCmd(id(node)).exec();
        }
        else if (!Boolean.TRUE.equals(state.getRunning())) {
            docker().startContainerCmd(id(node)).exec();
        }
    }

    private MemcachedTextClient client(int node) throws IOException {
        return new MemcachedTextClient(containers.get(node).getHost(), ports.get(node));
    }

    private DockerClient docker() {
        return containers.get(0).getDockerClient();
    }

    private String id(int node) {
        return containers.get(node).getContainerId();
    }

    @Override
    public void close() {
        for (int i = 0; i < size(); i++) {
            heal(i);
            containers.get(i).stop();
        }
    }

}
