package org.atomicshards.hibernate.internal.config;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnknownShardException;

/**
 * The validated, frozen physical topology: the shards in order, the virtual shard count and the initial
 * virtual→physical map proposed by the settings (the catalog's stored map wins once it exists).
 */
public final class Topology {

    private final Map<ShardId, ShardSpec> shards;
    private final List<ShardId> order;
    private final int virtualShards;
    private final ShardId[] initialMap;
    private final boolean explicitMap;

    Topology(List<ShardSpec> specs, int virtualShards, ShardId[] initialMap, boolean explicitMap) {
        Map<ShardId, ShardSpec> byId = new LinkedHashMap<>();
        specs.forEach(spec -> byId.put(spec.id(), spec));
        this.shards = Map.copyOf(byId);
        this.order = List.copyOf(byId.keySet());
        this.virtualShards = virtualShards;
        this.initialMap = initialMap.clone();
        this.explicitMap = explicitMap;
    }

    /** The shards in topology order. */
    public List<ShardId> shardIds() {
        return order;
    }

    /** @throws UnknownShardException if {@code id} is not part of the topology */
    public ShardSpec shard(ShardId id) {
        ShardSpec spec = shards.get(id);
        if (spec == null) {
            throw new UnknownShardException("Unknown shard '" + id + "': the topology has " + order
                    + ". Use one of those ids, or add the shard to the setting atomicshards.shards");
        }
        return spec;
    }

    public Optional<ShardSpec> find(ShardId id) {
        return Optional.ofNullable(shards.get(id));
    }

    public int virtualShards() {
        return virtualShards;
    }

    /** The virtual→physical map the settings propose (index = virtual shard). */
    public ShardId[] initialMap() {
        return initialMap.clone();
    }

    /** Whether the map was given explicitly (rather than the default even split). */
    public boolean hasExplicitMap() {
        return explicitMap;
    }

    /** An even contiguous split of {@code virtualShards} over {@code shards}, in order. */
    static ShardId[] evenSplit(List<ShardId> shards, int virtualShards) {
        ShardId[] map = new ShardId[virtualShards];
        int n = shards.size();
        for (int v = 0; v < virtualShards; v++) {
            map[v] = shards.get((int) ((long) v * n / virtualShards));
        }
        return map;
    }

    @Override
    public String toString() {
        return "Topology[shards=" + order + ", virtualShards=" + virtualShards + ", map=" + Arrays.toString(initialMap) + "]";
    }
}
