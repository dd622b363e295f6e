package dev.cachegateway.gateway.memcached.protocol;

import dev.cachegateway.gateway.memcached.CachedItem;
import net.spy.memcached.CachedData;
import net.spy.memcached.transcoders.Transcoder;

/**
 * Passes the bytes and flags through unchanged. spymemcached's default transcoder
 * Java-serialises a {@code byte[]} (flag 2048), which no other memcached client can read.
 */
public final class RawItemTranscoder implements Transcoder<CachedItem> {

    private final int maxSize;

    public RawItemTranscoder(int maxSize) {
        this.maxSize = maxSize;
    }

    // Decoding is a copy-free wrap: doing it on spymemcached's I/O thread is cheaper than
    // a hand-off.
    @Override
    public boolean asyncDecode(CachedData data) {
        return false;
    }

    @Override
    public CachedData encode(CachedItem item) {
        return new CachedData(item.flags(), item.value(), maxSize);
    }

    @Override
    public CachedItem decode(CachedData data) {
        return new CachedItem(data.getData(), data.getFlags());
    }

    @Override
    public int getMaxSize() {
        return maxSize;
    }

}
