package org.atomicshards.hibernate.internal.id;

import java.lang.reflect.Member;
import java.util.UUID;

import org.atomicshards.hibernate.id.TimeOrderedUuidId;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.GeneratorCreationContext;

/** The Hibernate generator behind {@link TimeOrderedUuidId}; needs no sharding runtime. */
public final class TimeOrderedUuidGenerator extends ShardSafeIdGenerator {

    private static final long serialVersionUID = 1L;

    public TimeOrderedUuidGenerator(TimeOrderedUuidId annotation, Member member, GeneratorCreationContext context) {
        super(member, "TimeOrderedUuidId");
        if (idType != UUID.class && idType != String.class) {
            throw new IllegalArgumentException("@TimeOrderedUuidId needs a UUID or String id, not " + idType.getName()
                    + " (" + member + ")");
        }
    }

    @Override
    Object nextId(SharedSessionContractImplementor session, Object owner) {
        UUID uuid = KeyGenerators.timeOrderedUuid();
        return idType == String.class ? uuid.toString() : uuid;
    }
}
