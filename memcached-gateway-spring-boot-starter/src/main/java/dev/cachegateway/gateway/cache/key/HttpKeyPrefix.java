package dev.cachegateway.gateway.cache.key;

/**
 * What every key of a whole-answer route starts with, so that a body route, which reads
 * any item as a body, never makes the key of an item that holds headers.
 *
 * @param value the prefix, {@code memcached.cache.http.key-prefix}; empty for none
 */
public record HttpKeyPrefix(String value) {

    /** The keys of a whole-answer route: the template's, each after the prefix. */
    public CacheKeyTemplate wholeAnswerKeys(String template) {
        return CacheKeyTemplate.parse(value + template);
    }

    /**
     * The keys of a body route; refused if they could start with the prefix, and so name
     * an item of a whole-answer route.
     */
    public CacheKeyTemplate bodyKeys(String template) {
        if (!value.isEmpty() && template.startsWith(value)) {
            throw new IllegalArgumentException("The key template " + template + " of a body route starts with " + value
                    + ", the prefix of http items (memcached.cache.http.key-prefix)");
        }
        return CacheKeyTemplate.parse(template);
    }

}
