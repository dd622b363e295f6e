package dev.cachegateway.gateway.cache.miss;

import java.util.Locale;

/** A replica's hold on a key's lock, or the lack of one. */
public sealed interface Claim permits Claim.Unheld, HeldLock {

    /** No lock: locks are off, the key is too long for one, or memcached failed. */
    Claim NONE = Unheld.NONE;

    /** Another replica holds the lock. */
    Claim TAKEN = Unheld.TAKEN;

    /**
     * A replica stored its answer a moment ago: what memcached holds now is that answer.
     */
    Claim STORED = Unheld.STORED;

    /**
     * Whether another replica holds the lock, so that this one waits for its item.
     */
    default boolean taken() {
        return this == TAKEN;
    }

    /** What came of the claim, in a word: held, none, taken or stored. */
    default String result() {
        return this instanceof Unheld unheld ? unheld.name().toLowerCase(Locale.ROOT) : "held";
    }

    /** The ways of holding no lock. */
    enum Unheld implements Claim {

        NONE, TAKEN, STORED

    }

}
