package org.atomicshards.hibernate.internal.id;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.EnumSet;

import org.atomicshards.hibernate.AtomicShardsException;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;

/**
 * What the shard-safe id generators share: they run on insert only, keep an id the application assigned, and find
 * the sharded session factory they run in (once, then cached).
 */
abstract class ShardSafeIdGenerator implements BeforeExecutionGenerator {

    private static final long serialVersionUID = 1L;

    /** The Java type of the generated id attribute. */
    final Class<?> idType;
    private final String annotationName;
    private transient volatile IdGenerationContext context;

    ShardSafeIdGenerator(Member member, String annotationName) {
        this.idType = typeOf(member);
        this.annotationName = annotationName;
    }

    /** A new id for {@code owner}, which has none yet. */
    abstract Object nextId(SharedSessionContractImplementor session, Object owner);

    @Override
    public final Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
                                 EventType eventType) {
        return currentValue != null ? currentValue : nextId(session, owner);
    }

    @Override
    public final EnumSet<EventType> getEventTypes() {
        return EnumSet.of(EventType.INSERT);
    }

    @Override
    public final boolean allowAssignedIdentifiers() {
        return true;
    }

    /**
     * What the session's sharded factory offers the generators.
     *
     * @throws AtomicShardsException if the factory is not sharded
     */
    final IdGenerationContext context(SharedSessionContractImplementor session) {
        IdGenerationContext current = context;
        if (current == null) {
            MultiTenantConnectionProvider<?> provider =
                    session.getFactory().getServiceRegistry().getService(MultiTenantConnectionProvider.class);
            if (provider == null || !provider.isUnwrappableAs(IdGenerationContext.class)) {
                throw new AtomicShardsException("@" + annotationName + " needs a sharded session factory (settings "
                        + "with atomicshards.shards); this session factory is not sharded");
            }
            current = provider.unwrap(IdGenerationContext.class);
            context = current;
        }
        return current;
    }

    private static Class<?> typeOf(Member member) {
        if (member instanceof Field field) {
            return field.getType();
        }
        if (member instanceof Method method) {
            return method.getReturnType();
        }
        throw new IllegalArgumentException("Unsupported id member " + member);
    }
}
