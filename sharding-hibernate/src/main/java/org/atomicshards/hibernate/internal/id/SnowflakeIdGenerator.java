package org.atomicshards.hibernate.internal.id;

import java.lang.reflect.Member;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.id.SnowflakeId;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.GeneratorCreationContext;

/** The Hibernate generator behind {@link SnowflakeId}. */
public final class SnowflakeIdGenerator extends ShardSafeIdGenerator {

    private static final long serialVersionUID = 1L;

    public SnowflakeIdGenerator(SnowflakeId annotation, Member member, GeneratorCreationContext context) {
        super(member, "SnowflakeId");
        if (idType != Long.class && idType != long.class) {
            throw new IllegalArgumentException("@SnowflakeId needs a long id, not " + idType.getName() + " (" + member + ")");
        }
    }

    @Override
    Object nextId(SharedSessionContractImplementor session, Object owner) {
        IdGenerationContext current = context(session);
        ShardId sessionShard = (ShardId) session.getTenantIdentifierValue();
        UnitRoutingImpl unit = current.router().unitOf(owner.getClass());
        if (unit != null) {
            MemberKey key = unit.memberKey(owner.getClass());
            if (key != null && key.kind() != MemberKey.Kind.ID) {
                Object unitKey = key.keyOf(owner);
                int virtualShard = unitKey == null ? -1 : unit.placement().virtualShardOf(unitKey);
                if (virtualShard >= 0) {
                    return current.keyGenerators().nextSnowflake(virtualShard);
                }
            }
        }
        return current.keyGenerators().nextSnowflakeOn(sessionShard);
    }
}
