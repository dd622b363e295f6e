package dev.cachegateway.gateway.cache.early;

import java.util.List;
import java.util.Optional;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.GlobalObservationConvention;
import io.micrometer.observation.ObservationFilter;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationPredicate;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.webflux.autoconfigure.WebHttpHandlerBuilderCustomizer;
import org.springframework.context.ApplicationContext;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.reactive.observation.ServerRequestObservationConvention;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.adapter.DefaultServerWebExchange;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;

/**
 * Puts a {@link FastHitHandler} around the application's HttpHandler, where it can answer
 * a hit as the handler would: the handler must be Spring's own adapter of this context
 * (not the management port's), with no forwarded headers applied to requests, and its
 * server observation must do nothing that a timer does not for the requests answered
 * below it: no handler but meters, save tracing handlers that see traced requests alone
 * ({@link TraceDecisions}: those are then traced by {@link TracedHits}), and the default
 * convention. Otherwise it says why and leaves the handler as it is.
 */
public final class FastHitInstaller implements WebHttpHandlerBuilderCustomizer {

    private static final Logger log = LoggerFactory.getLogger(FastHitInstaller.class);

    private final ApplicationContext context;

    private final EarlyRoutes routes;

    private final HandedOverLookups handedOver;

    private final FastHitDoors doors;

    private final @Nullable TraceDecisions traces;

    FastHitInstaller(ApplicationContext context, EarlyRoutes routes, HandedOverLookups handedOver, FastHitDoors doors,
            @Nullable TraceDecisions traces) {
        this.context = context;
        this.routes = routes;
        this.handedOver = handedOver;
        this.doors = doors;
        this.traces = traces;
    }

    @Override
    public void customize(WebHttpHandlerBuilder builder) {
        builder.httpHandlerDecorator(this::decorate);
    }

    HttpHandler decorate(HttpHandler handler) {
        // The management port's context builds its handler with the same customizers.
        if (!(handler instanceof HttpWebHandlerAdapter adapter) || adapter.getApplicationContext() != context) {
            return handler;
        }
        ServerRequestObservationConvention convention = adapter.getObservationConvention() != null
                ? adapter.getObservationConvention() : new DefaultServerRequestObservationConvention();
        Optional<String> unlike = unlikeATimer(adapter, convention);
        if (unlike.isPresent()) {
            log.warn("Fresh hits are answered through Spring's WebHandler after all (memcached.cache."
                    + "hits-skip-web-filters=true), since {}", unlike.get());
            return handler;
        }
        log.info("Fresh hits of cached routes are answered below Spring's WebHandler; these WebFilters never see"
                + " them: {}", skipped());
        @Nullable ServerRequestTimers timers = adapter.getObservationRegistry().isNoop() ? null
                : new ServerRequestTimers(context.getBean(MeterRegistry.class), convention,
                        beans(ObservationPredicate.class), beans(ObservationFilter.class));
        @Nullable TraceDecisions decisions = traces;
        @Nullable TracedHits tracing = decisions != null && timers != null && gated(adapter) ? new TracedHits(decisions,
                new TracedRequests(adapter), context.getBeanProvider(ServerSpans.class).getIfAvailable(), timers)
                : null;
        return new FastHitHandler(adapter,
                (request, response) -> new DefaultServerWebExchange(request, response, adapter.getSessionManager(),
                        adapter.getCodecConfigurer(), adapter.getLocaleContextResolver()),
                routes, handedOver, doors, timers, tracing);
    }

    // Why a timer would not do what Spring's server observation does, if it would not.
    private Optional<String> unlikeATimer(HttpWebHandlerAdapter adapter,
            ServerRequestObservationConvention convention) {
        if (adapter.getForwardedHeaderTransformer() != null) {
            return Optional.of("requests get forwarded headers applied (server.forward-headers-strategy=framework)");
        }
        if (convention.getClass() != DefaultServerRequestObservationConvention.class) {
            return Optional.of("the server observation has a convention of its own: " + convention.getClass());
        }
        if (adapter.getObservationRegistry().isNoop()) {
            return Optional.empty();
        }
        // One may apply to the server observation instead of its own convention.
        List<GlobalObservationConvention<?>> globals = beans(GlobalObservationConvention.class);
        if (!globals.isEmpty()) {
            return Optional.of("global observation conventions are set: " + globals);
        }
        for (ObservationHandler<?> other : this.<ObservationHandler<?>>beans(ObservationHandler.class)) {
            if (!(other instanceof MeterObservationHandler<?>) && (traces == null || !traces.gates(other))) {
                return Optional.of("an observation handler other than a meter's sees every request (tracing without"
                        + " memcached.tracing.head-sampling?): " + other.getClass().getName());
            }
        }
        return Optional.empty();
    }

    // Whether requests are traced at all: if not, none need deciding.
    private boolean gated(HttpWebHandlerAdapter adapter) {
        return traces != null && !adapter.getObservationRegistry().isNoop()
                && this.<ObservationHandler<?>>beans(ObservationHandler.class).stream().anyMatch(traces::gates);
    }

    private List<String> skipped() {
        return context.getBeansOfType(WebFilter.class)
            .entrySet()
            .stream()
            .filter(filter -> !doors.handles(filter.getValue()) && !(filter.getValue() instanceof EarlyHitFilter))
            .map(filter -> filter.getKey())
            .sorted()
            .toList();
    }

    @SuppressWarnings("unchecked")
    private <T> List<T> beans(Class<?> type) {
        return (List<T>) context.getBeanProvider(type).orderedStream().toList();
    }

}
