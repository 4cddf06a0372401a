package org.atomicshards.hibernate.internal.fanout;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.spi.ShardRouter;
import org.atomicshards.hibernate.spi.UnitRouting;

/**
 * A test router over the Account unit: HASH (a mixed hash of the key modulo the shard count; ranges cannot be
 * narrowed) or RANGE (contiguous key ranges of equal width over [0, keySpace); ranges narrow).
 */
final class TestRouter implements ShardRouter, UnitRouting {

    enum Policy { HASH, RANGE }

    private final List<ShardId> shards;
    private final Policy policy;
    private final long keySpace;

    TestRouter(List<ShardId> shards, Policy policy, long keySpace) {
        this.shards = List.copyOf(shards);
        this.policy = policy;
        this.keySpace = keySpace;
    }

    ShardId shardOf(long key) {
        if (policy == Policy.HASH) {
            long mixed = key * 0x9E3779B97F4A7C15L;
            return shards.get((int) Math.floorMod(mixed ^ (mixed >>> 29), (long) shards.size()));
        }
        long width = (keySpace + shards.size() - 1) / shards.size();
        int index = (int) Math.min(shards.size() - 1, Math.max(0, key / width));
        return shards.get(index);
    }

    @Override
    public List<ShardId> shards() {
        return shards;
    }

    @Override
    public Optional<UnitRouting> routingOf(Class<?> entityType) {
        return entityType == Account.class || entityType == Purchase.class ? Optional.of(this) : Optional.empty();
    }

    @Override
    public Class<?> root() {
        return Account.class;
    }

    @Override
    public Class<?> keyType() {
        return Long.class;
    }

    @Override
    public String shardKeyPath(Class<?> memberType) {
        Map<Class<?>, String> paths = Map.of(Account.class, "id", Purchase.class, "accountId");
        String path = paths.get(memberType);
        if (path == null) {
            throw new IllegalArgumentException(memberType + " is not a member of the Account unit");
        }
        return path;
    }

    @Override
    public Set<ShardId> shardsForKey(Object key) {
        if (!(key instanceof Long value)) {
            throw new IllegalArgumentException("Not a Long key: " + key);
        }
        return Set.of(shardOf(value));
    }

    @Override
    public Set<ShardId> shardsForRange(Comparable<?> lower, boolean lowerInclusive, Comparable<?> upper,
                                       boolean upperInclusive) {
        if (policy == Policy.HASH) {
            return new LinkedHashSet<>(shards);
        }
        long from = lower == null ? 0 : ((Long) lower) + (lowerInclusive ? 0 : 1);
        long to = upper == null ? keySpace - 1 : ((Long) upper) - (upperInclusive ? 0 : 1);
        Set<ShardId> result = new LinkedHashSet<>();
        if (from > to) {
            return result;
        }
        int first = shards.indexOf(shardOf(Math.max(0, from)));
        int last = shards.indexOf(shardOf(Math.min(keySpace - 1, Math.max(0, to))));
        for (int i = first; i <= last; i++) {
            result.add(shards.get(i));
        }
        return result;
    }
}
