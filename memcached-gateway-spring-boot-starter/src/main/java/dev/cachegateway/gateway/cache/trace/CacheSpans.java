package dev.cachegateway.gateway.cache.trace;

import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

/**
 * The spans of a request's lookup ({@value #LOOKUP}), of its miss's replica lock
 * ({@value #LOCK}), of the store of the backend's answer ({@value #STORE}), and of a
 * request that joined a miss in flight here and waited for its lead ({@value #FOLLOW},
 * tagged with the request's X-Cache), each a child of the request's server span, with the
 * memcached server of its key, the key, and what came of it ({@code result}). The backend
 * call is the gateway's own span, which sends the trace on in {@code traceparent}.
 * <p>
 * Off where the application does not trace, and for a request whose trace is not sampled:
 * no span is made for it then, so that a hit pays for spans only when they are exported.
 * The spans go to the tracer alone, not through the application's observation registry,
 * which would time each in a meter too.
 */
public final class CacheSpans {

    public static final String LOOKUP = "memcached.cache.lookup";

    public static final String LOCK = "memcached.cache.lock";

    public static final String STORE = "memcached.cache.store";

    public static final String FOLLOW = "memcached.cache.follow";

    private static final String PARENT = CacheSpans.class.getName() + ".parent";

    private static final CacheSpans OFF = new CacheSpans(null, null);

    private final @Nullable ChildSpans children;

    private final @Nullable ReactiveMemcached memcached;

    private CacheSpans(@Nullable ChildSpans children, @Nullable ReactiveMemcached memcached) {
        this.children = children;
        this.memcached = memcached;
    }

    public static CacheSpans off() {
        return OFF;
    }

    /** Spans from {@code children}, for requests whose own span is sampled. */
    static CacheSpans on(ChildSpans children, ReactiveMemcached memcached) {
        return new CacheSpans(children, memcached);
    }

    /**
     * The request's answer, with the request's own observation noted on the exchange: a
     * store, or a lead that goes on after its client left, runs outside the request's
     * Reactor context and finds its parent there.
     */
    public Mono<Void> around(ServerWebExchange exchange, Mono<Void> answer) {
        ChildSpans spans = children;
        if (spans == null) {
            return answer;
        }
        return Mono.deferContextual(context -> {
            Observation current = context.getOrDefault(ObservationThreadLocalAccessor.KEY, null);
            if (current != null && spans.sampled(current)) {
                exchange.getAttributes().put(PARENT, current);
            }
            return answer;
        });
    }

    /**
     * {@code step} in a span named {@code name}, tagged with {@code result} of what it
     * gives; a step that gives nothing is tagged {@code none}.
     */
    public <T> Mono<T> observe(ServerWebExchange exchange, String name, String key, Mono<T> step,
            Function<? super T, String> result) {
        return inSpan(exchange, name, key, step,
                (span, observed) -> observed.doOnNext(value -> span.result(result.apply(value))), span -> {
                });
    }

    /**
     * The answer that {@code step} writes, in a span tagged with {@code result} at its
     * end.
     */
    public Mono<Void> observeAnswer(ServerWebExchange exchange, String name, String key, Mono<Void> step,
            Supplier<String> result) {
        return inSpan(exchange, name, key, step, (span, observed) -> observed, span -> span.result(result.get()));
    }

    // during: what tags the span as the step runs; atEnd: what tags it just before it
    // stops.
    private <T> Mono<T> inSpan(ServerWebExchange exchange, String name, String key, Mono<T> step,
            BiFunction<CacheSpan, Mono<T>, Mono<T>> during, Consumer<CacheSpan> atEnd) {
        if (children == null) {
            return step;
        }
        // Asked as the step starts: the request's observation is noted as its answer
        // starts, after the step was put together.
        return Mono.defer(() -> {
            if (exchange.getAttribute(PARENT) == null) {
                return step;
            }
            CacheSpan span = start(exchange, name, key);
            return during.apply(span, step).doOnError(span::error).doFinally(signal -> {
                atEnd.accept(span);
                span.end();
            });
        });
    }

    /**
     * A span started now, for a step that ends outside a Reactor chain;
     * {@link CacheSpan#NONE} when off. Its owner says its result and ends it.
     */
    public CacheSpan start(ServerWebExchange exchange, String name, String key) {
        Observation parent = exchange.getAttribute(PARENT);
        if (children == null || memcached == null || parent == null) {
            return CacheSpan.NONE;
        }
        return children.start(parent, name, memcached.serverOf(key), key);
    }

}
