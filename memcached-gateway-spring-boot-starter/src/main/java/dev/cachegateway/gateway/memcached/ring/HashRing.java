package dev.cachegateway.gateway.memcached.ring;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * A consistent-hashing continuum: points on a 32-bit circle, each owned by a server, and
 * a key belongs to the owner of the first point at or after the key's hash, wrapping past
 * the last. libmemcached and nginx search their continuums this way; they differ only in
 * how they make the points and hash the key.
 */
public final class HashRing {

    private final long[] points;

    private final int[] owners;

    private final ToLongFunction<byte[]> keyHash;

    private final boolean oneServer;

    private HashRing(long[] points, int[] owners, ToLongFunction<byte[]> keyHash) {
        this.points = points;
        this.owners = owners;
        this.keyHash = keyHash;
        this.oneServer = Arrays.stream(owners).distinct().count() <= 1;
    }

    /** The index, in the configured server list, of the server that holds {@code key}. */
    public int serverFor(String key) {
        // The usual single server holds every key: no hash to compute on each operation.
        if (oneServer) {
            return owners.length > 0 ? owners[0] : 0;
        }
        long hash = keyHash.applyAsLong(key.getBytes(StandardCharsets.UTF_8));
        int low = 0;
        int high = points.length;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (points[middle] < hash) {
                low = middle + 1;
            }
            else {
                high = middle;
            }
        }
        return owners[low == points.length ? 0 : low];
    }

    /** How many points the ring has; for tests of how a ring is made. */
    public int size() {
        return points.length;
    }

    /** Collects points, then sorts them into a ring. */
    public static final class Builder {

        private final List<long[]> pointsAndOwners = new ArrayList<>();

        private final ToLongFunction<byte[]> keyHash;

        Builder(ToLongFunction<byte[]> keyHash) {
            this.keyHash = keyHash;
        }

        Builder add(long point, int owner) {
            pointsAndOwners.add(new long[] { point, owner });
            return this;
        }

        HashRing build() {
            // Two servers on one point are rare, and neither libmemcached nor nginx says
            // who wins; a stable sort at least makes ours the same on every replica.
            long[][] sorted = pointsAndOwners.toArray(long[][]::new);
            Arrays.sort(sorted, Comparator.comparingLong(pair -> pair[0]));
            long[] points = new long[sorted.length];
            int[] owners = new int[sorted.length];
            for (int i = 0; i < sorted.length; i++) {
                points[i] = sorted[i][0];
                owners[i] = (int) sorted[i][1];
            }
            return new HashRing(points, owners, keyHash);
        }

    }

}
