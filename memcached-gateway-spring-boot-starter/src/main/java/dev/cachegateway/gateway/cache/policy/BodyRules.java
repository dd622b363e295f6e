package dev.cachegateway.gateway.cache.policy;

import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.Set;

import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

/**
 * What the body format asks of an answer besides HTTP's rules: a hit is made of the
 * bytes, the route's Content-Type and the gzip flag, so an answer whose headers say more
 * than those can carry is not stored.
 */
final class BodyRules {

    private final MediaType contentType;

    private final int gzipFlag;

    private final Set<String> keyedHeaders;

    /**
     * @param contentType the type a hit on the route is served with
     * @param gzipFlag the item flag that marks a gzip body; zero stores no gzip body
     * @param keyedHeaders the request headers, in lower case, that the route's key is
     * made of
     */
    BodyRules(MediaType contentType, int gzipFlag, Set<String> keyedHeaders) {
        this.contentType = contentType;
        this.gzipFlag = gzipFlag;
        this.keyedHeaders = Set.copyOf(keyedHeaders);
    }

    /*
     * A hit is found by its key alone, so every header the answer varies on must be part
     * of the key. Accept-Encoding is the exception: a gzip item carries the gzip flag and
     * is only served to clients that take gzip, and an identity body suits every client.
     */
    boolean keyCoversVary(HttpHeaders headers) {
        for (String name : headers.getVary()) {
            String header = name.toLowerCase(Locale.ROOT);
            if (header.equals("*") || !header.equals("accept-encoding") && !keyedHeaders.contains(header)) {
                return false;
            }
        }
        return true;
    }

    /** Why the answer's type or coding cannot be told by a hit, or null if they can. */
    @Nullable Skip refusal(HttpHeaders headers) {
        if (!hasRouteContentType(headers)) {
            return Skip.CONTENT_TYPE;
        }
        return flagsFor(headers.getValuesAsList(HttpHeaders.CONTENT_ENCODING)).isEmpty() ? Skip.CONTENT_ENCODING : null;
    }

    /** The item's flags for the answer's coding: the gzip flag for gzip, else 0. */
    int flags(HttpHeaders headers) {
        return flagsFor(headers.getValuesAsList(HttpHeaders.CONTENT_ENCODING)).orElse(0);
    }

    // A hit is served with the route's type, so an answer of another type would come back
    // mislabelled.
    private boolean hasRouteContentType(HttpHeaders headers) {
        try {
            MediaType type = headers.getContentType();
            return type != null && contentType.equalsTypeAndSubtype(type);
        }
        catch (InvalidMediaTypeException ex) {
            return false;
        }
    }

    // A hit says "gzip" only through the item's flags, so only gzip with a gzip flag can
    // be stored encoded.
    private OptionalInt flagsFor(List<String> codings) {
        if (codings.isEmpty() || codings.equals(List.of("identity"))) {
            return OptionalInt.of(0);
        }
        return codings.equals(List.of("gzip")) && gzipFlag != 0 ? OptionalInt.of(gzipFlag) : OptionalInt.empty();
    }

}
