package org.atomicshards.hibernate.internal.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.spi.ShardDirectory;

/**
 * An immutable virtual→physical map that is not (or not yet) in force: the "after" of a planned topology change,
 * given to {@link org.atomicshards.hibernate.spi.SelectionPolicy#virtualShardsMovedBy} and
 * {@link org.atomicshards.hibernate.spi.SelectionPolicy#moves}. It records no placements.
 */
public final class VirtualShardMap implements ShardDirectory {

    private final int version;
    private final ShardId[] owners;
    private final List<ShardId> topologyOrder;

    /**
     * @param owners the owner of each virtual shard (index = virtual shard); none null
     * @param topologyOrder the physical shards in topology order (owners not listed follow in order of appearance)
     */
    public VirtualShardMap(int version, List<ShardId> owners, List<ShardId> topologyOrder) {
        this.version = version;
        this.owners = owners.toArray(ShardId[]::new);
        Arrays.stream(this.owners).forEach(owner -> Objects.requireNonNull(owner, "owner"));
        Set<ShardId> order = new LinkedHashSet<>(topologyOrder);
        order.addAll(owners);
        this.topologyOrder = List.copyOf(order);
    }

    /** A copy of {@code directory}'s map in force. */
    public static VirtualShardMap copyOf(ShardDirectory directory) {
        List<ShardId> owners = new ArrayList<>(directory.virtualShards());
        for (int v = 0; v < directory.virtualShards(); v++) {
            owners.add(directory.shardOf(v));
        }
        return new VirtualShardMap(directory.version(), owners, directory.owningShards());
    }

    /** A new version of this map with {@code virtualShards} owned by {@code newOwner}. */
    public VirtualShardMap with(Set<Integer> virtualShards, ShardId newOwner) {
        ShardId[] changed = owners.clone();
        virtualShards.forEach(v -> changed[v] = newOwner);
        List<ShardId> order = new ArrayList<>(topologyOrder);
        if (!order.contains(newOwner)) {
            order.add(newOwner);
        }
        return new VirtualShardMap(version + 1, Arrays.asList(changed), order);
    }

    @Override
    public int version() {
        return version;
    }

    @Override
    public int virtualShards() {
        return owners.length;
    }

    @Override
    public ShardId shardOf(int virtualShard) {
        return owners[virtualShard];
    }

    @Override
    public List<Integer> virtualShardsOf(ShardId shard) {
        List<Integer> owned = new ArrayList<>();
        for (int v = 0; v < owners.length; v++) {
            if (owners[v].equals(shard)) {
                owned.add(v);
            }
        }
        return owned;
    }

    @Override
    public List<ShardId> owningShards() {
        Set<ShardId> owning = new HashSet<>(Arrays.asList(owners));
        return topologyOrder.stream().filter(owning::contains).toList();
    }

    @Override
    public Optional<Integer> placementOf(Class<?> unitRoot, Object key) {
        return Optional.empty();
    }
}
