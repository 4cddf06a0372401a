package org.atomicshards.hibernate.internal.id;

import java.lang.reflect.Member;
import java.util.EnumSet;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.id.SnowflakeId;
import org.atomicshards.hibernate.internal.boot.ShardingRuntime;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.GeneratorCreationContext;

/** The Hibernate generator behind {@link SnowflakeId}. */
public final class SnowflakeIdGenerator implements BeforeExecutionGenerator {

    private static final long serialVersionUID = 1L;

    private final Class<?> idType;
    private transient volatile ShardingRuntime runtime;

    public SnowflakeIdGenerator(SnowflakeId annotation, Member member, GeneratorCreationContext context) {
        this.idType = SequenceBlockIdGenerator.typeOf(member);
        if (idType != Long.class && idType != long.class) {
            throw new IllegalArgumentException("@SnowflakeId needs a long id, not " + idType.getName() + " (" + member + ")");
        }
    }

    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
                           EventType eventType) {
        if (currentValue != null) {
            return currentValue;
        }
        ShardingRuntime current = runtime;
        if (current == null) {
            current = GeneratorSupport.runtimeOf(session, "SnowflakeId");
            runtime = current;
        }
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

    @Override
    public EnumSet<EventType> getEventTypes() {
        return EnumSet.of(EventType.INSERT);
    }

    @Override
    public boolean allowAssignedIdentifiers() {
        return true;
    }
}
