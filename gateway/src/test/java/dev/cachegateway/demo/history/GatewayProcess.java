package dev.cachegateway.demo.history;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

/**
 * A gateway in a JVM of its own, started with the test class path and the settings the
 * in-JVM replicas get, so that a fault can stop the whole process ({@code SIGSTOP}) and
 * let it go on ({@code SIGCONT}), as a long collection or a frozen container would.
 */
final class GatewayProcess implements AutoCloseable {

    private final Process process;

    private final int port = FreePort.next();

    private final int managementPort = FreePort.next();

    GatewayProcess(String memcachedServers, String originUri, Path log, String... settings) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "dev.cachegateway.demo.GatewayApplication", "--server.port=" + port,
                "--management.server.port=" + managementPort, "--comments-service.uri=" + originUri,
                "--memcached.servers=" + memcachedServers, "--memcached.operation-timeout=500ms"));
        command.addAll(List.of(settings));
        try {
            File output = log.toFile();
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output).start();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        HttpClient http = HttpClient.newHttpClient();
        Awaitility.await("gateway process " + process.pid() + " up")
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(500))
            .ignoreExceptions()
            .until(() -> http
                .send(HttpRequest.newBuilder(URI.create(managementUri() + "/actuator/health/liveness")).build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode() == 200);
    }

    String uri() {
        return "http://localhost:" + port;
    }

    String managementUri() {
        return "http://localhost:" + managementPort;
    }

    void pause() {
        signal("-STOP");
    }

    void resume() {
        signal("-CONT");
    }

    private void signal(String which) {
        try {
            int exit = new ProcessBuilder("kill", which, Long.toString(process.pid())).start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException("kill " + which + " " + process.pid() + " exited " + exit);
            }
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        resume();
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

}
