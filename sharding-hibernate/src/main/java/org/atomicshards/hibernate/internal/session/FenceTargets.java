package org.atomicshards.hibernate.internal.session;

import org.atomicshards.hibernate.internal.reshard.fence.FenceTarget;
import org.atomicshards.hibernate.internal.routing.IdRoute;
import org.atomicshards.hibernate.internal.routing.SnowflakeLayout;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;

/** What a unit of work, a write or a read by id fences on its shard during online resharding. */
final class FenceTargets {

    private FenceTargets() {
    }

    /**
     * The virtual shard a unit of work routed with, or for a unit on a consistent-hash ring its key and the map version
     * it was routed under; null for a unit with nothing to fence.
     */
    static FenceTarget of(UnitRoutingImpl unit, RoutedKey routed) {
        if (unit.placement().onRing()) {
            return FenceTarget.onRing(unit, routed.key(), routed.mapVersion());
        }
        return routed.virtualShard() < 0 ? null : FenceTarget.of(unit, routed.virtualShard(), routed.key());
    }

    private static FenceTarget ofKey(UnitRoutingImpl unit, Object key, int mapVersion) {
        Object checked = unit.checkKey(key);
        if (unit.placement().onRing()) {
            return FenceTarget.onRing(unit, checked, mapVersion);
        }
        int bucket = unit.placement().virtualShardOf(checked);
        return bucket < 0 ? null : FenceTarget.of(unit, bucket, checked);
    }

    /**
     * The unit an id leads to; null for an id that names no shard. {@code mapVersion} is the map version read before
     * the id was routed.
     */
    static FenceTarget ofId(IdRoute route, UnitRoutingImpl unit, Object id, int mapVersion) {
        return switch (route.kind()) {
            case SNOWFLAKE -> new FenceTarget(SnowflakeLayout.virtualShardOf(((Number) id).longValue()),
                    unit.unitName(), "", false);
            case KEY -> ofKey(unit, id, mapVersion);
            case KEY_IN_ID -> ofKey(unit, route.key().keyFromState(null, id), mapVersion);
            case ASK -> null;
        };
    }
}
