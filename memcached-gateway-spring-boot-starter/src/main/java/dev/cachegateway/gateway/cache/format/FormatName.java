package dev.cachegateway.gateway.cache.format;

/** A route's item format, as its {@code item-format} setting names it. */
public enum FormatName {

    /**
     * The body alone, as nginx's {@code memcached_pass} reads it: the default, readable
     * by every client.
     */
    BODY,

    /** The whole answer, as OpenResty's srcache stores it: status, headers and body. */
    HTTP

}
