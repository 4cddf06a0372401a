package org.atomicshards.hibernate.internal.routing;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.atomicshards.hibernate.KeyRange;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;

/**
 * Placements computed from the key to a virtual shard, then through the directory's map to a physical shard.
 */
public abstract class VirtualShardPlacement implements KeyPlacement {

    protected final CachedShardDirectory directory;

    protected VirtualShardPlacement(CachedShardDirectory directory) {
        this.directory = directory;
    }

    @Override
    public ShardId shardOf(Object key) {
        return directory.shardOf(virtualShardOf(key));
    }

    /** HASH: a stable, well-mixed hash modulo the virtual shard count. */
    public static VirtualShardPlacement hash(CachedShardDirectory directory) {
        return new VirtualShardPlacement(directory) {
            @Override
            public int virtualShardOf(Object key) {
                return (int) Long.remainderUnsigned(StableHash.of(key), directory.virtualShards());
            }
        };
    }

    /** MODULO: an integral key modulo the virtual shard count. */
    public static VirtualShardPlacement modulo(CachedShardDirectory directory) {
        return new VirtualShardPlacement(directory) {
            @Override
            public int virtualShardOf(Object key) {
                int count = directory.virtualShards();
                if (key instanceof BigInteger b) {
                    return b.mod(BigInteger.valueOf(count)).intValue();
                }
                return (int) Math.floorMod(((Number) key).longValue(), (long) count);
            }
        };
    }

    /** SNOWFLAKE: the virtual shard is read from the key's bits. */
    public static VirtualShardPlacement snowflake(CachedShardDirectory directory) {
        return new VirtualShardPlacement(directory) {
            @Override
            public int virtualShardOf(Object key) {
                int v = SnowflakeLayout.virtualShardOf(((Number) key).longValue());
                if (v >= directory.virtualShards()) {
                    throw new UnroutableKeyException("Snowflake id " + key + " names virtual shard " + v
                            + ", but there are only " + directory.virtualShards()
                            + ". It was not generated for this topology");
                }
                return v;
            }
        };
    }

    /** RANGE: the configured range containing the key. */
    public static VirtualShardPlacement range(CachedShardDirectory directory, List<KeyRange> ranges, String unitName) {
        List<KeyRange> sorted = ranges.stream()
                .sorted(Comparator.comparing(KeyRange::from)).toList();
        boolean allLong = sorted.stream().allMatch(r -> r.from().bitLength() < 64 && r.to().bitLength() < 64);
        long[] froms = sorted.stream().mapToLong(r -> r.from().longValue()).toArray();
        long[] tos = sorted.stream().mapToLong(r -> r.to().longValue()).toArray();
        int[] owners = sorted.stream().mapToInt(KeyRange::virtualShard).toArray();
        return new VirtualShardPlacement(directory) {
            @Override
            public int virtualShardOf(Object key) {
                if (allLong && !(key instanceof BigInteger)) {
                    long k = ((Number) key).longValue();
                    int index = Arrays.binarySearch(froms, k);
                    if (index < 0) {
                        index = -index - 2;
                    }
                    if (index >= 0 && k <= tos[index]) {
                        return owners[index];
                    }
                } else {
                    BigInteger k = ShardKeys.toBigInteger(key);
                    for (KeyRange r : sorted) {
                        if (r.contains(k)) {
                            return r.virtualShard();
                        }
                    }
                }
                throw new UnroutableKeyException("Key " + key + " of unit " + unitName
                        + " lies outside every configured range " + sorted
                        + ". Fix: add a range covering it (setting atomicshards.unit." + unitName + ".ranges)");
            }
        };
    }
}
