package dev.cachegateway.gateway.cache.early;

import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationFilter;
import io.micrometer.observation.ObservationPredicate;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.http.server.reactive.observation.ServerRequestObservationConvention;

/**
 * The {@code http.server.requests} timer of the hits {@link FastHitHandler} answers,
 * which Spring's server observation never sees. The observation builds a context, its key
 * values and its timer's name and tags again for every request; a hit's tags follow from
 * its method and status alone, so each such pair's timer is made once, through the very
 * convention, predicates and filters the observation registry applies, and kept. The
 * timer then is the one the observation records into: same name, same tags, and the
 * {@code error} tag that Micrometer's meter handler adds.
 */
final class ServerRequestTimers {

    // GET and HEAD, by status from 100 to 599.
    private static final int STATUSES = 500;

    private final MeterRegistry meters;

    private final ServerRequestObservationConvention convention;

    private final String name;

    private final List<ObservationPredicate> predicates;

    private final List<ObservationFilter> filters;

    // Empty where the registry's predicates turn the observation off, as they would
    // Spring's.
    private final AtomicReferenceArray<Optional<Timer>> timers = new AtomicReferenceArray<>(2 * STATUSES);

    ServerRequestTimers(MeterRegistry meters, ServerRequestObservationConvention convention,
            List<ObservationPredicate> predicates, List<ObservationFilter> filters) {
        this.meters = meters;
        this.convention = convention;
        // The convention names the observation, and the observation its timer.
        this.name = Objects.requireNonNull(convention.getName(), "the server observation's name");
        this.predicates = List.copyOf(predicates);
        this.filters = List.copyOf(filters);
    }

    /** Times an answered request, by its method and the status it was answered with. */
    void record(ServerHttpRequest request, ServerHttpResponse response, long startedAt) {
        @Nullable HttpStatusCode status = response.getStatusCode();
        int index = status != null ? status.value() - 100 : -1;
        if (index < 0 || index >= STATUSES) {
            return;
        }
        if (HttpMethod.HEAD.equals(request.getMethod())) {
            index += STATUSES;
        }
        Optional<Timer> timer = timers.get(index);
        if (timer == null) {
            timer = timer(request, response);
            timers.set(index, timer);
        }
        timer.ifPresent(found -> found.record(System.nanoTime() - startedAt, TimeUnit.NANOSECONDS));
    }

    /**
     * A sample of the timer's clock, taken now, for a request that may get its server
     * observation later than it arrived.
     */
    Timer.Sample sample() {
        return Timer.start(meters);
    }

    /**
     * The context that Spring's server observation of an answered request would have at
     * its end: named and tagged by the convention, mapped by the filters.
     */
    Observation.Context observed(ServerHttpRequest request, ServerHttpResponse response, boolean aborted) {
        ServerRequestObservationContext context = new ServerRequestObservationContext(request, response,
                new HashMap<>());
        context.setConnectionAborted(aborted);
        context.setName(name);
        return observed(context);
    }

    private Observation.Context observed(ServerRequestObservationContext context) {
        context.setContextualName(convention.getContextualName(context));
        context.addLowCardinalityKeyValues(convention.getLowCardinalityKeyValues(context));
        context.addHighCardinalityKeyValues(convention.getHighCardinalityKeyValues(context));
        Observation.Context mapped = context;
        for (ObservationFilter filter : filters) {
            mapped = filter.map(mapped);
        }
        return mapped;
    }

    // Spring's observation, once: its context, named, tagged by the convention, tested by
    // the predicates and mapped by the filters, as the registry does for each request.
    private Optional<Timer> timer(ServerHttpRequest request, ServerHttpResponse response) {
        ServerRequestObservationContext context = new ServerRequestObservationContext(request, response,
                new HashMap<>());
        context.setName(name);
        for (ObservationPredicate predicate : predicates) {
            if (!predicate.test(name, context)) {
                return Optional.empty();
            }
        }
        Observation.Context mapped = observed(context);
        Timer.Builder timer = Timer.builder(name);
        for (KeyValue tag : mapped.getLowCardinalityKeyValues()) {
            timer.tag(tag.getKey(), tag.getValue());
        }
        // Micrometer's DefaultMeterObservationHandler tags each timer with the error, if
        // any.
        return Optional.of(timer.tags(List.of(Tag.of("error", "none"))).register(meters));
    }

}
