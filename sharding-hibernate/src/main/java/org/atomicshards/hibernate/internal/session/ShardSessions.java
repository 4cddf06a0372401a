package org.atomicshards.hibernate.internal.session;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.config.Topology;
import org.hibernate.Session;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/** Opens Hibernate sessions bound to a named shard of the topology; the caller owns and closes them. */
final class ShardSessions {

    private final SessionFactoryImplementor sessionFactory;
    private final Topology topology;

    ShardSessions(SessionFactoryImplementor sessionFactory, Topology topology) {
        this.sessionFactory = sessionFactory;
        this.topology = topology;
    }

    /** @throws org.atomicshards.hibernate.UnknownShardException if the shard is not in the topology */
    Session open(ShardId shard) {
        topology.shard(shard);
        return sessionFactory.withOptions().tenantIdentifier(shard).openSession();
    }

    /** A read-only session (entities loaded read-only too). */
    Session openReadOnly(ShardId shard) {
        topology.shard(shard);
        Session session = sessionFactory.withOptions().tenantIdentifier(shard).readOnly(true).openSession();
        session.setDefaultReadOnly(true);
        return session;
    }
}
