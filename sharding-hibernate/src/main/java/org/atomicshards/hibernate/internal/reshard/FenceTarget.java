package org.atomicshards.hibernate.internal.reshard;

import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.spi.SelectionPolicy;

/**
 * What a unit of work fences: the virtual shard of its key, and the unit and key text logged while that virtual
 * shard's units are being copied. {@code perUnit} is set for units whose placement is recorded ({@code lookup},
 * {@code round_robin}): those can also move alone ({@code ShardAdmin.moveUnit}), so the fence checks the unit's own
 * row in {@code as_unit_fence} as well. A unit on a consistent-hash ring has no virtual shard: its fence is the
 * shard's ring row for the unit ({@code as_ring_fence}), and {@code ringVersion} the map version its key was routed
 * under ({@link #NOT_ON_RING} for every other unit).
 */
public record FenceTarget(int bucket, String unitName, String keyText, boolean perUnit, int ringVersion) {

    /** The {@link #ringVersion} of a unit on virtual shards. */
    public static final int NOT_ON_RING = -1;

    public FenceTarget(int bucket, String unitName, String keyText, boolean perUnit) {
        this(bucket, unitName, keyText, perUnit, NOT_ON_RING);
    }

    /** The target of {@code unit}'s checked {@code key}, which routes to virtual shard {@code bucket}. */
    public static FenceTarget of(UnitRoutingImpl unit, int bucket, Object key) {
        return new FenceTarget(bucket, unit.unitName(), ShardKeys.text(key), unit.placement().recordsPlacements());
    }

    /** The target of a ring unit's checked {@code key}, routed with the map of version {@code mapVersion} or newer. */
    public static FenceTarget onRing(UnitRoutingImpl unit, Object key, int mapVersion) {
        return new FenceTarget(SelectionPolicy.NO_VIRTUAL_SHARD, unit.unitName(), ShardKeys.text(key), false,
                mapVersion);
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
