package org.atomicshards.hibernate.internal.reshard.fence;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.internal.selection.ConsistentHashSelection;
import org.atomicshards.hibernate.spi.SelectionPolicy;

/**
 * What a unit of work fences: the virtual shard of its key, and the unit and key text logged while that virtual
 * shard's units are being copied. {@code perUnit} is set for units whose placement is recorded ({@code lookup},
 * {@code round_robin}): those can also move alone ({@code ShardAdmin.moveUnit}), so the fence checks the unit's own
 * row in {@code as_unit_fence} as well. A unit on a consistent-hash ring has no virtual shard: its fence is the
 * shard's ring row for the unit ({@code as_ring_fence}), {@code ringVersion} the map version its key was routed
 * under ({@link #NOT_ON_RING} for every other unit), and while the ring changes {@code ringFrom} and {@code ringTo}
 * the key's owners under the ring in force and the ring it changes to (null when not known: the fence then makes the
 * work wait whenever the shard is switching any of the unit's keys).
 */
public record FenceTarget(int bucket, String unitName, String keyText, boolean perUnit, int ringVersion,
                          String ringFrom, String ringTo) {

    /** The {@link #ringVersion} of a unit on virtual shards. */
    public static final int NOT_ON_RING = -1;

    public FenceTarget(int bucket, String unitName, String keyText, boolean perUnit) {
        this(bucket, unitName, keyText, perUnit, NOT_ON_RING, null, null);
    }

    /** The target of {@code unit}'s checked {@code key}, which routes to virtual shard {@code bucket}. */
    public static FenceTarget of(UnitRoutingImpl unit, int bucket, Object key) {
        return new FenceTarget(bucket, unit.unitName(), ShardKeys.text(key), unit.placement().recordsPlacements());
    }

    /** The target of a ring unit's checked {@code key}, routed with the map of version {@code mapVersion} or newer. */
    public static FenceTarget onRing(UnitRoutingImpl unit, Object key, int mapVersion) {
        ShardId[] owners = unit.placement().policy() instanceof ConsistentHashSelection ring
                ? ring.ownersDuringChange(key, unit.placement().topology()) : null;
        return new FenceTarget(SelectionPolicy.NO_VIRTUAL_SHARD, unit.unitName(), ShardKeys.text(key), false,
                mapVersion, owners == null ? null : owners[0].name(), owners == null ? null : owners[1].name());
    }

    /**
     * Whether the ring unit's key is among those a batch switching between this shard and {@code peer} moves: on the
     * source ({@code source}) those the ring after the change gives to the peer, on the target those the ring in
     * force gives to the peer. True when the key's owners are not known.
     */
    boolean movesWith(String peer, boolean source) {
        String owner = source ? ringTo : ringFrom;
        return peer == null || owner == null || owner.equals(peer);
    }

    /**
     * A whole virtual shard: what the library keeps by virtual shard besides units (the entries of indexes, which live
     * on the shard owning their value's virtual shard).
     */
    public static FenceTarget virtualShard(int bucket) {
        return new FenceTarget(bucket, OwnershipFence.ANY_UNIT, OwnershipFence.ANY_UNIT, false);
    }

    /** Whether the target is a ring unit's. */
    public boolean onRing() {
        return ringVersion != NOT_ON_RING;
    }

    /** Whether there is anything to fence: a virtual shard, or a ring. */
    public boolean fenced() {
        return bucket >= 0 || onRing();
    }
}
