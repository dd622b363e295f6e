package dev.cachegateway.gateway.warmup;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.cloud.gateway.event.RefreshRoutesEvent;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;

/**
 * Warms the gateway up before its readiness says UP: Spring Boot marks an application
 * ready only once its runners have returned, and this one returns when the warm-up is
 * over: once its own requests run steady ({@link WarmUpProgress}), or its time is up. A
 * cold JVM serves its first real requests at a tenth of its speed, while the JIT compiler
 * works; an autoscaler adds a replica exactly when that hurts. A warm-up that fails or
 * overruns only says so: the gateway starts anyway.
 */
final class WarmUp implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(WarmUp.class);

    /**
     * How long the gateway may take to list or drop the warm-up routes, and to finish the
     * last requests.
     */
    private static final Duration GRACE = Duration.ofSeconds(5);

    private static final Duration POLL = Duration.ofMillis(10);

    private final WarmUpProperties properties;

    private final WarmUpRoutes routes;

    private final RouteLocator gatewayRoutes;

    private final ApplicationContext context;

    private final Optional<String> tagHeader;

    /**
     * {@code tagHeader} is the response header that names an answer's tags, if the
     * gateway reads any.
     */
    WarmUp(WarmUpProperties properties, WarmUpRoutes routes, RouteLocator gatewayRoutes, ApplicationContext context,
            Optional<String> tagHeader) {
        this.properties = properties;
        this.routes = routes;
        this.gatewayRoutes = gatewayRoutes;
        this.context = context;
        this.tagHeader = tagHeader;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (properties.getDuration().isZero() || properties.getDuration().isNegative()) {
            return;
        }
        long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        Duration duration = properties.lengthAfter(Duration.ofMillis(uptime));
        if (duration.isZero()) {
            log.info("No warm-up: the gateway took {} ms to start, and should say ready within {} ms", uptime,
                    properties.getReadyWithin().toMillis());
            return;
        }
        Optional<URI> gateway = gatewayAddress();
        if (gateway.isEmpty()) {
            log.info("No warm-up: the gateway serves no plain HTTP port of its own to send it to");
            return;
        }
        String token = UUID.randomUUID().toString();
        try (WarmUpBackend backend = WarmUpBackend.start(tagHeader)) {
            List<Route> configured = gatewayRoutes.getRoutes().collectList().block(GRACE);
            routes.open(backend.uri(), token, configured != null ? configured : List.of());
            refreshRoutes(true);
            WarmUpProgress progress = WarmUpProgress.ofThisJvm();
            long started = System.nanoTime();
            Map<String, Long> answers = WarmUpTraffic
                .send(gateway.get(), token, properties.getPaths(), duration, Math.max(1, properties.getConcurrency()),
                        progress)
                .block(duration.plus(GRACE));
            log.info("Warmed up for {} ms, {}, before saying ready: {}",
                    Duration.ofNanos(System.nanoTime() - started).toMillis(),
                    progress.steady() ? "steady" : "not steady within " + duration.toMillis() + " ms", answers);
        }
        catch (RuntimeException ex) {
            log.warn("The warm-up stopped early; the gateway starts anyway: {}", ex.toString());
        }
        finally {
            routes.close();
            try {
                refreshRoutes(false);
            }
            catch (RuntimeException ex) {
                log.warn("The warm-up routes are still listed; they answer no request without its token: {}",
                        ex.toString());
            }
        }
    }

    /**
     * Has the gateway reload its routes, and waits until the warm-up's are listed or
     * gone.
     */
    private void refreshRoutes(boolean listed) {
        context.publishEvent(new RefreshRoutesEvent(this));
        long deadline = System.nanoTime() + GRACE.toNanos();
        while (Boolean.TRUE.equals(gatewayRoutes.getRoutes()
            .any(route -> route.getId().startsWith(WarmUpRoutes.ID_PREFIX))
            .block()) != listed) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the gateway did not " + (listed ? "list" : "drop")
                        + " the warm-up routes within " + GRACE.toSeconds() + " s");
            }
            LockSupport.parkNanos(POLL.toNanos());
        }
    }

    /**
     * The gateway's own HTTP address, over the loopback interface unless it listens on
     * one address only.
     */
    private Optional<URI> gatewayAddress() {
        Environment environment = context.getEnvironment();
        if (!(context instanceof WebServerApplicationContext web) || web.getWebServer() == null
                || environment.getProperty("server.ssl.enabled", Boolean.class, false)
                || environment.containsProperty("server.ssl.bundle")) {
            return Optional.empty();
        }
        String address = environment.getProperty("server.address", "");
        String host = address.isEmpty() || address.equals("0.0.0.0") || address.equals("::") ? "127.0.0.1"
                : address.contains(":") ? "[" + address + "]" : address;
        return Optional.of(URI.create("http://" + host + ":" + web.getWebServer().getPort()));
    }

}
