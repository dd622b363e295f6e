package dev.cachegateway.gateway.cache.early;

import java.lang.reflect.Field;
import java.util.Optional;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Fuseable;

import org.springframework.cloud.gateway.handler.AsyncPredicate;
import org.springframework.util.ReflectionUtils;
import org.springframework.web.server.ServerWebExchange;

/**
 * A route's predicate as a plain test, for {@link EarlyHitFilter}: where every part of it
 * answers at once, its value is read without subscribing to anything. The gateway joins a
 * route's predicates with {@code and}, and those joins keep their parts to themselves, so
 * they are opened once, when routes load; anything this class does not know makes the
 * whole predicate unknown, and the request is left to the gateway.
 */
public final class SyncPredicates {

    private SyncPredicates() {
    }

    /** The predicate as a plain test, or none if some part of it cannot say at once. */
    public static Optional<Predicate<ServerWebExchange>> of(AsyncPredicate<? super ServerWebExchange> predicate) {
        try {
            return Optional.ofNullable(open(predicate));
        }
        catch (RuntimeException ex) {
            return Optional.empty();
        }
    }

    @SuppressWarnings("unchecked")
    private static @Nullable Predicate<ServerWebExchange> open(AsyncPredicate<? super ServerWebExchange> predicate) {
        if (predicate instanceof AsyncPredicate.AndAsyncPredicate<?> and) {
            return both(open(part(and, "left")), open(part(and, "right")), true);
        }
        if (predicate instanceof AsyncPredicate.OrAsyncPredicate<?> or) {
            return both(open(part(or, "left")), open(part(or, "right")), false);
        }
        if (predicate instanceof AsyncPredicate.NegateAsyncPredicate<?> negate) {
            Predicate<ServerWebExchange> inner = open(part(negate, "predicate"));
            return inner != null ? inner.negate() : null;
        }
        if (predicate instanceof AsyncPredicate.DefaultAsyncPredicate<?> plain) {
            AsyncPredicate<ServerWebExchange> leaf = (AsyncPredicate<ServerWebExchange>) plain;
            return exchange -> value(leaf.apply(exchange));
        }
        return null;
    }

    // Short-circuits as the gateway's own and/or do, so that the same parts run.
    private static @Nullable Predicate<ServerWebExchange> both(@Nullable Predicate<ServerWebExchange> left,
            @Nullable Predicate<ServerWebExchange> right, boolean and) {
        if (left == null || right == null) {
            return null;
        }
        return and ? left.and(right) : left.or(right);
    }

    private static boolean value(Publisher<Boolean> result) {
        if (result instanceof Fuseable.ScalarCallable<?> scalar) {
            try {
                return Boolean.TRUE.equals(scalar.call());
            }
            catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        }
        throw new IllegalStateException("Not a plain predicate: " + result);
    }

    @SuppressWarnings("unchecked")
    private static AsyncPredicate<? super ServerWebExchange> part(Object join, String name) {
        Field field = ReflectionUtils.findField(join.getClass(), name);
        if (field == null) {
            throw new IllegalStateException("No " + name + " in " + join.getClass());
        }
        ReflectionUtils.makeAccessible(field);
        Object part = ReflectionUtils.getField(field, join);
        if (part == null) {
            throw new IllegalStateException("No " + name + " set in " + join.getClass());
        }
        return (AsyncPredicate<? super ServerWebExchange>) part;
    }

}
