package org.atomicshards.hibernate.internal.id;

import java.lang.reflect.Member;

import org.atomicshards.hibernate.id.SequenceBlockId;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.GeneratorCreationContext;

/** The Hibernate generator behind {@link SequenceBlockId}. */
public final class SequenceBlockIdGenerator extends ShardSafeIdGenerator {

    private static final long serialVersionUID = 1L;

    private transient volatile String sequenceName;

    public SequenceBlockIdGenerator(SequenceBlockId annotation, Member member, GeneratorCreationContext context) {
        super(member, "SequenceBlockId");
    }

    @Override
    Object nextId(SharedSessionContractImplementor session, Object owner) {
        String sequence = sequenceName;
        if (sequence == null) {
            // one sequence per entity hierarchy, shared with ShardedSessionFactory.persist's key generation
            sequence = session.getEntityPersister(null, owner).getRootEntityName();
            sequenceName = sequence;
        }
        return context(session).keyGenerators().nextSequenceValue(sequence, idType);
    }
}
