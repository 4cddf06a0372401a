package org.atomicshards.hibernate.internal.reshard;

import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;

/**
 * What a unit of work fences: the virtual shard of its key, and the unit and key text logged while that virtual
 * shard's units are being copied. {@code perUnit} is set for units whose placement is recorded ({@code lookup},
 * {@code round_robin}): those can also move alone ({@code ShardAdmin.moveUnit}), so the fence checks the unit's own
 * row in {@code as_unit_fence} as well.
 */
public record FenceTarget(int bucket, String unitName, String keyText, boolean perUnit) {

    /** The target of {@code unit}'s checked {@code key}, which routes to virtual shard {@code bucket}. */
    public static FenceTarget of(UnitRoutingImpl unit, int bucket, Object key) {
        return new FenceTarget(bucket, unit.unitName(), ShardKeys.text(key), unit.placement().recordsPlacements());
    }
}
