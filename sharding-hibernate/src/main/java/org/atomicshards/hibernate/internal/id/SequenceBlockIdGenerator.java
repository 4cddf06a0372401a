package org.atomicshards.hibernate.internal.id;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.EnumSet;

import org.atomicshards.hibernate.id.SequenceBlockId;
import org.atomicshards.hibernate.internal.boot.ShardingRuntime;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.GeneratorCreationContext;

/** The Hibernate generator behind {@link SequenceBlockId}. */
public final class SequenceBlockIdGenerator implements BeforeExecutionGenerator {

    private static final long serialVersionUID = 1L;

    private final Class<?> idType;
    private transient volatile ShardingRuntime runtime;
    private transient volatile String sequenceName;

    public SequenceBlockIdGenerator(SequenceBlockId annotation, Member member, GeneratorCreationContext context) {
        this.idType = typeOf(member);
    }

    static Class<?> typeOf(Member member) {
        if (member instanceof Field field) {
            return field.getType();
        }
        if (member instanceof Method method) {
            return method.getReturnType();
        }
        throw new IllegalArgumentException("Unsupported id member " + member);
    }

    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
                           EventType eventType) {
        if (currentValue != null) {
            return currentValue;
        }
        ShardingRuntime current = runtime;
        if (current == null) {
            current = GeneratorSupport.runtimeOf(session, "SequenceBlockId");
            runtime = current;
        }
        String sequence = sequenceName;
        if (sequence == null) {
            // one sequence per entity hierarchy, shared with ShardedSessionFactory.persist's key generation
            sequence = session.getEntityPersister(null, owner).getRootEntityName();
            sequenceName = sequence;
        }
        return current.keyGenerators().nextSequenceValue(sequence, idType);
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
