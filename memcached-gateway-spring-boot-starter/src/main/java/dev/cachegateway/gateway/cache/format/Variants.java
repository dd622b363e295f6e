package dev.cachegateway.gateway.cache.format;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;

import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.digest.Md5;
import dev.cachegateway.gateway.cache.key.VariantKey;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * The variants of an answer that varies (RFC 9111 4.1), as nginx's {@code proxy_cache}
 * keeps them: each under a secondary key made of the primary key and a digest of the
 * request headers its {@code Vary} names, and the latest one under the primary key too,
 * where every lookup starts. The items carry {@value #HEADER}: the variant's digest and
 * the primary item's epoch, a random word that every variant stored beside it shares. A
 * write that deletes the primary item thereby orphans all the secondary ones, since the
 * next primary item gets a new epoch: no key index is needed to invalidate them.
 */
public final class Variants {

    /** The header that names an item's variant and epoch; it never reaches a client. */
    public static final String HEADER = "X-Cache-Variant";

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private Variants() {
    }

    /**
     * Whether an answer varies on request headers; {@code Vary: *} is not stored at all.
     */
    public static boolean varies(HttpHeaders answer) {
        return !answer.getVary().isEmpty();
    }

    /**
     * The digest of what a request with these headers sends for the headers an answer's
     * Vary names.
     */
    static String digest(HttpHeaders answer, HttpHeaders request) {
        StringBuilder selected = new StringBuilder();
        TreeSet<String> names = new TreeSet<>();
        answer.getVary().forEach(name -> names.add(name.trim().toLowerCase(Locale.ROOT)));
        for (String name : names) {
            List<String> values = request.get(name);
            // Absent differs from empty; several lines count as one comma-separated list
            // (RFC 9110 5.3).
            selected.append(name).append(values == null ? "\n" : ":" + normalised(values) + "\n");
        }
        return BASE64URL.encodeToString(Md5.digest(selected.toString().getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * What the misses of one variant share in a gateway's table of misses in flight
     * ({@code InFlightRequests}): the primary key and the variant's digest, apart by a
     * space, which no rendered key holds.
     */
    public static String flightKey(String primary, HttpHeaders answer, HttpHeaders request) {
        return primary + " " + digest(answer, request);
    }

    /**
     * Whether a stored answer is the variant a request with these headers needs; one that
     * does not vary always is.
     */
    static boolean matches(HttpHeaders stored, HttpHeaders request) {
        return !varies(stored) || digest(stored, request).equals(part(stored, 0));
    }

    /** The epoch of a stored variant, if it has one. */
    public static Optional<String> epoch(@Nullable HttpHeaders stored) {
        return stored != null ? Optional.ofNullable(part(stored, 1)) : Optional.empty();
    }

    /**
     * Whether {@code value}, as memcached holds it, is a whole answer that holds one
     * variant of an answer that varies.
     */
    public static boolean heldIn(byte[] value) {
        return HttpMessage.decode(value).flatMap(stored -> epoch(stored.headers())).isPresent();
    }

    /**
     * A hit's answer with the variant of the item it was made from, which a hit leaves
     * out: for requests that wait for it, so that each can tell whether it is the variant
     * it needs. It never reaches a client.
     */
    public static CapturedResponse tagged(CapturedResponse hit, HttpHeaders stored) {
        String variant = stored.getFirst(HEADER);
        if (variant == null) {
            return hit;
        }
        HttpHeaders headers = HttpHeaders.copyOf(hit.headers());
        headers.set(HEADER, variant);
        return new CapturedResponse(hit.status(), headers, hit.body());
    }

    /** A new epoch, for a primary item that does not exist yet. */
    public static String newEpoch() {
        byte[] random = new byte[6];
        ThreadLocalRandom.current().nextBytes(random);
        return BASE64URL.encodeToString(random);
    }

    /** The value of {@value #HEADER} for a variant stored under an epoch. */
    public static String value(HttpHeaders captured, String epoch) {
        return part(captured, 0) + " " + epoch;
    }

    /** The secondary key of the variant a captured answer is. */
    public static Optional<String> keyOf(String primary, HttpHeaders captured, String epoch) {
        String digest = part(captured, 0);
        return digest != null ? VariantKey.of(primary, epoch, digest) : Optional.empty();
    }

    private static String normalised(List<String> values) {
        StringBuilder joined = new StringBuilder();
        for (String value : values) {
            for (String member : value.split(",")) {
                String trimmed = member.trim();
                if (!trimmed.isEmpty()) {
                    joined.append(joined.isEmpty() ? "" : ",").append(trimmed);
                }
            }
        }
        return joined.toString();
    }

    private static @Nullable String part(HttpHeaders stored, int index) {
        String value = stored.getFirst(HEADER);
        String[] parts = value != null ? value.trim().split(" +") : new String[0];
        return index < parts.length ? parts[index] : null;
    }

}
