package org.atomicshards.hibernate.internal.session;

import org.atomicshards.hibernate.internal.reshard.FenceTarget;
import org.atomicshards.hibernate.internal.routing.IdRoute;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.internal.routing.SnowflakeLayout;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/** What a unit of work, a write or a read by id fences on its shard during online resharding. */
final class FenceTargets {

    private FenceTargets() {
    }

    /** The virtual shard of {@code key}'s unit; null for a new key a directory policy has not placed yet. */
    static FenceTarget ofKey(UnitRoutingImpl unit, Object key) {
        Object checked = unit.checkKey(key);
        int bucket = unit.placement().virtualShardOf(checked);
        return bucket < 0 ? null : new FenceTarget(bucket, unit.unitName(), ShardKeys.text(checked));
    }

    /** The unit {@code entity} belongs to (its key is known once its shard was routed); null without a key. */
    static FenceTarget ofEntity(UnitRoutingImpl unit, Object entity, Class<?> type, SessionFactoryImplementor factory) {
        MemberKey memberKey = unit.memberKey(type);
        if (memberKey == null) {
            memberKey = unit.memberKey(factory.getMappingMetamodel().getEntityDescriptor(type).getMappedClass());
        }
        Object key = memberKey.keyOf(entity);
        return key == null ? null : ofKey(unit, key);
    }

    /** The unit an id leads to; null for an id that names no shard. */
    static FenceTarget ofId(IdRoute route, UnitRoutingImpl unit, Object id) {
        return switch (route.kind()) {
            case SNOWFLAKE -> new FenceTarget(SnowflakeLayout.virtualShardOf(((Number) id).longValue()),
                    unit.unitName(), "");
            case KEY -> ofKey(unit, id);
            case KEY_IN_ID -> ofKey(unit, route.key().keyFromState(null, id));
            case ASK -> null;
        };
    }
}
