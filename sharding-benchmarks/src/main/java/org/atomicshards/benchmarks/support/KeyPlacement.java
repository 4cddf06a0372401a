package org.atomicshards.benchmarks.support;

/**
 * Where a side keeps the unit with a given key: the index of its shard. Test data is loaded straight into the
 * databases with JDBC, so each side supplies its own placement (ShardingSphere's inline modulo, Atomic Shards'
 * policy, a single database) and every row lands where that side will look for it.
 */
@FunctionalInterface
public interface KeyPlacement {

    /** @return the shard index, in {@code [0, shardCount)}, of the unit with this key */
    int shardOf(long key);

    /** Everything on one database. */
    static KeyPlacement single() {
        return key -> 0;
    }

    /** {@code key % shardCount}: ShardingSphere's documented inline expression {@code ds_${id % n}}. */
    static KeyPlacement modulo(int shardCount) {
        return key -> (int) Math.floorMod(key, (long) shardCount);
    }
}
