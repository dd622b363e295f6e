package dev.cachegateway.gateway.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;

import dev.cachegateway.gateway.cache.invalidate.KeyInvalidation;
import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.cache.key.HttpKeyPrefix;
import dev.cachegateway.gateway.cache.purge.SoftPurge;
import dev.cachegateway.gateway.cache.purge.SoftPurge.Outcome;
import dev.cachegateway.gateway.cache.tag.TagPurge;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * Purges for operators, on the management port only:
 * {@code DELETE /actuator/memcached/api/v1/comments/1} purges the items of that path in
 * every format (its {@code $uri} key, derived as for a request, and the same key after
 * the {@code http} items' prefix, whose variants go with it), and
 * {@code DELETE /actuator/memcached?key=...} purges any key as it is written, and
 * {@code DELETE /actuator/memcached?tag=...} every item stored with that tag
 * ({@link TagPurge}). A purge of a key is a write's invalidation
 * ({@link KeyInvalidation}), so that a fetch under way from before it does not store its
 * older answer after it; with {@code soft=true} the items turn stale instead
 * ({@link SoftPurge}).
 */
@Endpoint(id = "memcached")
class MemcachedCacheEndpoint {

    private static final CacheKeyTemplate PATH_KEY = CacheKeyTemplate.parse("$uri");

    private static final int MAX_TAG = 1024;

    // As the tag headers split them: no blank, no comma, no control character.
    private static final IntPredicate TAG_CHARACTER = c -> c > ' ' && c != ',' && c != 0x7f;

    private final KeyInvalidation keys;

    private final SoftPurge soft;

    private final HttpKeyPrefix httpPrefix;

    private final TagPurge tags;

    MemcachedCacheEndpoint(KeyInvalidation keys, SoftPurge soft, HttpKeyPrefix httpPrefix, TagPurge tags) {
        this.keys = keys;
        this.soft = soft;
        this.httpPrefix = httpPrefix;
        this.tags = tags;
    }

    @DeleteOperation
    Mono<WebEndpointResponse<Map<String, Object>>> deletePath(@Selector(match = Match.ALL_REMAINING) String[] path,
            @Nullable Boolean soft) {
        Optional<String> key = PATH_KEY.render("/" + String.join("/", path), null);
        return purge(key, key.map(this::everyFormat).orElse(List.of()), Boolean.TRUE.equals(soft));
    }

    // One operation for both: an endpoint has one operation without a selector.
    @DeleteOperation
    Mono<WebEndpointResponse<Map<String, Object>>> deleteKeyOrTag(@Nullable String key, @Nullable String tag,
            @Nullable Boolean soft) {
        if ((key == null) == (tag == null)) {
            return Mono.just(badRequest("name one key=<key> or one tag=<tag>"));
        }
        if (tag != null) {
            return purgeTag(tag, Boolean.TRUE.equals(soft));
        }
        Optional<String> valid = Optional.ofNullable(key).filter(MemcachedLimits::isValidKey);
        return purge(valid, valid.map(List::of).orElse(List.of()), Boolean.TRUE.equals(soft));
    }

    private Mono<WebEndpointResponse<Map<String, Object>>> purgeTag(String tag, boolean softly) {
        if (tag.isEmpty() || tag.length() > MAX_TAG || !tag.codePoints().allMatch(TAG_CHARACTER)) {
            return Mono.just(badRequest("not a valid tag"));
        }
        return tags.purge(tag, softly)
            .map(generation -> new WebEndpointResponse<Map<String, Object>>(
                    Map.of("tag", tag, "purge", softly ? "soft" : "hard")))
            .onErrorResume(failure -> Mono.just(unavailable("tag", tag, failure)));
    }

    private static WebEndpointResponse<Map<String, Object>> badRequest(String error) {
        return new WebEndpointResponse<>(Map.of("error", error), WebEndpointResponse.STATUS_BAD_REQUEST);
    }

    private static WebEndpointResponse<Map<String, Object>> unavailable(String by, String name, Throwable failure) {
        return new WebEndpointResponse<>(
                Map.of(by, name, "error", "memcached unavailable: " + failure.getClass().getSimpleName()),
                WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
    }

    // The path's key, and its key on whole-answer routes where that is a key too.
    private List<String> everyFormat(String key) {
        List<String> all = new ArrayList<>(List.of(key));
        String whole = httpPrefix.value() + key;
        if (!httpPrefix.value().isEmpty() && MemcachedLimits.isValidKey(whole)) {
            all.add(whole);
        }
        return all;
    }

    private Mono<WebEndpointResponse<Map<String, Object>>> purge(Optional<String> named, List<String> all,
            boolean softly) {
        if (named.isEmpty()) {
            return Mono.just(badRequest("not a valid memcached key"));
        }
        String key = named.get();
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("key", key);
        if (all.size() > 1) {
            answer.put("keys", all);
        }
        Mono<Map<String, Object>> done = softly ? softly(all, answer) : hard(all, answer);
        return done.map(WebEndpointResponse::new).onErrorResume(failure -> Mono.just(unavailable("key", key, failure)));
    }

    private Mono<Map<String, Object>> hard(List<String> all, Map<String, Object> answer) {
        return Flux.fromIterable(all).flatMap(keys::invalidate).reduce(false, Boolean::logicalOr).map(deleted -> {
            answer.put("deleted", deleted);
            return answer;
        });
    }

    // "softened": whether any item turned stale; "purged": the keys purged hard all the
    // same, since their answers vary.
    private Mono<Map<String, Object>> softly(List<String> all, Map<String, Object> answer) {
        return Flux.fromIterable(all)
            .flatMap(key -> soft.purge(key).map(outcome -> Map.entry(key, outcome)))
            .collectMap(Map.Entry::getKey, Map.Entry::getValue)
            .map(outcomes -> {
                answer.put("soft", true);
                answer.put("softened", outcomes.containsValue(Outcome.SOFTENED));
                List<String> purged = all.stream().filter(key -> outcomes.get(key) == Outcome.PURGED).toList();
                if (!purged.isEmpty()) {
                    answer.put("purged", purged);
                }
                return answer;
            });
    }

}
