package org.atomicshards.hibernate.internal.id;

import java.lang.reflect.Member;
import java.util.EnumSet;
import java.util.UUID;

import org.atomicshards.hibernate.id.TimeOrderedUuidId;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.GeneratorCreationContext;

/** The Hibernate generator behind {@link TimeOrderedUuidId}. */
public final class TimeOrderedUuidGenerator implements BeforeExecutionGenerator {

    private static final long serialVersionUID = 1L;

    private final Class<?> idType;

    public TimeOrderedUuidGenerator(TimeOrderedUuidId annotation, Member member, GeneratorCreationContext context) {
        this.idType = SequenceBlockIdGenerator.typeOf(member);
        if (idType != UUID.class && idType != String.class) {
            throw new IllegalArgumentException("@TimeOrderedUuidId needs a UUID or String id, not " + idType.getName()
                    + " (" + member + ")");
        }
    }

    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
                           EventType eventType) {
        if (currentValue != null) {
            return currentValue;
        }
        UUID uuid = KeyGenerators.timeOrderedUuid();
        return idType == String.class ? uuid.toString() : uuid;
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
