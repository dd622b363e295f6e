package dev.cachegateway.gateway.cache.format;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.cachegateway.gateway.cache.key.VariantKey;
import dev.cachegateway.gateway.cache.outcome.XCache;
import dev.cachegateway.gateway.cache.policy.StoredAnswerAge;
import dev.cachegateway.gateway.cache.policy.StoredFreshness;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.response.EntityTags;
import dev.cachegateway.gateway.cache.response.GzipAcceptance;
import dev.cachegateway.gateway.cache.tag.ItemTags;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MetaItem;

import org.springframework.http.HttpHeaders;

/**
 * The whole answer in memcached, as OpenResty's srcache stores it ({@link HttpMessage}):
 * status, headers and body, so that a hit answers as the backend did, and srcache and
 * this gateway read each other's items. Hop-by-hop headers and {@code Set-Cookie} are not
 * stored, as srcache's {@code srcache_store_hide_header} defaults; a route may hide more
 * or pass some. A hit adds {@code Age}, and a {@code Date} and an ETag of the body where
 * the item has none.
 */
public final class HttpFormat implements ItemFormat {

    /**
     * srcache's hidden headers, and the two other hop-by-hop headers of proxies that it
     * lets through ({@code Proxy-Connection}, {@code Proxy-Authentication-Info});
     * Content-Length too, since each reader frames its own answer.
     */
    public static final Set<String> HIDDEN = Set.of("connection", "keep-alive", "proxy-authenticate",
            "proxy-authorization", "proxy-connection", "proxy-authentication-info", "te", "trailers",
            "transfer-encoding", "upgrade", "set-cookie", "content-length");

    private final Set<String> hidden;

    /**
     * @param hide more headers not to store
     * @param pass headers to store although srcache would not, such as {@code Set-Cookie}
     */
    public HttpFormat(Collection<String> hide, Collection<String> pass) {
        Set<String> names = new TreeSet<>(HIDDEN);
        hide.forEach(name -> names.add(name.toLowerCase(Locale.ROOT)));
        pass.forEach(name -> names.remove(name.toLowerCase(Locale.ROOT)));
        // The gateway's own headers describe one request, never the answer.
        names.add(XCache.HEADER.toLowerCase(Locale.ROOT));
        names.add("cache-status");
        this.hidden = Set.copyOf(names);
    }

    /** Whether a header of the backend's answer is left out of the item. */
    public boolean hides(String name) {
        return hidden.contains(name.toLowerCase(Locale.ROOT));
    }

    /**
     * The message, and the headers every hit on it sends: the stored ones less the
     * variant mark and the tags, and an ETag of the body where the backend sent none.
     */
    @Override
    public Optional<DecodedItem> decode(CachedItem item) {
        return HttpMessage.decode(item.value()).map(stored -> {
            HttpHeaders hitHeaders = HttpHeaders.copyOf(stored.headers());
            hitHeaders.remove(Variants.HEADER);
            hitHeaders.remove(ItemTags.HEADER);
            if (!hitHeaders.containsHeader(HttpHeaders.ETAG)) {
                hitHeaders.setETag(EntityTags.of(stored.body()));
            }
            return new DecodedItem(stored, new AgedHeaders(hitHeaders),
                    StoredFreshness.of(stored.headers(), System.currentTimeMillis()),
                    ItemTags.of(stored.headers().getFirst(ItemTags.HEADER)));
        });
    }

    /**
     * Marks an answer that varies with the digest of this request's headers, so that only
     * its variant shares it.
     */
    @Override
    public CapturedResponse capture(CapturedResponse answer, HttpHeaders requestHeaders) {
        if (!Variants.varies(answer.headers())) {
            return answer;
        }
        HttpHeaders headers = HttpHeaders.copyOf(answer.headers());
        headers.set(Variants.HEADER, Variants.digest(answer.headers(), requestHeaders));
        return new CapturedResponse(answer.status(), headers, answer.body());
    }

    /**
     * The answer as a message, without the hidden headers, those its {@code Connection}
     * names, and an ETag that the gateway computed itself (hits compute it again); with a
     * {@code Date} if the backend sent none (RFC 9110 6.6.1), and with only the
     * {@code Age} that its {@code Date} does not tell, so that hits count no second
     * twice.
     */
    @Override
    public CachedItem encode(CapturedResponse answer, int flags, long askedMillis) {
        Set<String> named = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        answer.headers().getConnection().forEach(named::add);
        HttpHeaders stored = new HttpHeaders();
        answer.headers().forEach((name, values) -> {
            if (!hides(name) && !named.contains(name)) {
                stored.put(name, values);
            }
        });
        String etag = stored.getETag();
        if (etag != null && etag.equals(EntityTags.of(answer.body()))) {
            stored.remove(HttpHeaders.ETAG);
        }
        if (!stored.containsHeader(HttpHeaders.DATE)) {
            stored.setDate(askedMillis);
        }
        long age = StoredAnswerAge.toStore(stored, askedMillis);
        if (age > 0) {
            stored.set(HttpHeaders.AGE, Long.toString(age));
        }
        else {
            stored.remove(HttpHeaders.AGE);
        }
        return new CachedItem(HttpMessage.encode(answer.status(), stored, answer.body()), flags);
    }

    @Override
    public boolean canAnswer(HttpHeaders requestHeaders, CapturedResponse stored) {
        return GzipAcceptance.canTake(requestHeaders, stored) && Variants.matches(stored.headers(), requestHeaders);
    }

    @Override
    public boolean storesVariants() {
        return true;
    }

    @Override
    public boolean storesTags() {
        return true;
    }

    // A whole answer with a validator lives on past its windows, to be revalidated: its
    // TTL does not say when its freshness ends.
    @Override
    public boolean ttlEndsWithWindows() {
        return false;
    }

    // Only the stored headers: a replica that waits for another's answer asks this on
    // every poll, and needs no ETag.
    @Override
    public boolean isFresh(MetaItem found) {
        return HttpMessage.decode(found.item().value())
            .map(stored -> StoredAnswerAge
                .of(stored.headers(), found.item().flags(), found.remainingTtlSeconds(), System.currentTimeMillis())
                .age()
                .fresh())
            .orElse(false);
    }

    /**
     * Aged by RFC 9111 4.2.3 from its stored headers ({@link StoredAnswerAge}), with a
     * Date if it has none.
     */
    @Override
    public HitAnswer answer(DecodedItem item, int flags, long remainingTtl, long nowMillis) {
        StoredAnswerAge age = item.freshness().at(flags, remainingTtl, nowMillis);
        CapturedResponse stored = item.stored();
        return new HitAnswer(
                new CapturedResponse(stored.status(), item.hitHeaders().at(age.seconds(), nowMillis), stored.body()),
                age.age());
    }

    /**
     * A request for another variant than the one under the primary key looks under that
     * variant's own key.
     */
    @Override
    public Optional<String> otherVariant(String key, CapturedResponse stored, HttpHeaders requestHeaders) {
        if (Variants.matches(stored.headers(), requestHeaders)) {
            return Optional.empty();
        }
        String epoch = Variants.epoch(stored.headers()).orElse("none");
        return VariantKey.of(key, epoch, Variants.digest(stored.headers(), requestHeaders));
    }

}
