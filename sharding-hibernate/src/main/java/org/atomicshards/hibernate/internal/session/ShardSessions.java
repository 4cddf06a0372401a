package org.atomicshards.hibernate.internal.session;

import java.sql.Connection;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.config.Topology;
import org.atomicshards.hibernate.internal.replica.ReplicaReads;
import org.hibernate.Session;
import org.hibernate.SessionEventListener;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.engine.spi.SharedSessionContractImplementor;

/** Opens Hibernate sessions bound to a named shard of the topology; the caller owns and closes them. */
final class ShardSessions {

    private final SessionFactoryImplementor sessionFactory;
    private final Topology topology;
    private final ReplicaReads replicas;

    ShardSessions(SessionFactoryImplementor sessionFactory, Topology topology, ReplicaReads replicas) {
        this.sessionFactory = sessionFactory;
        this.topology = topology;
        this.replicas = replicas;
    }

    /** @throws org.atomicshards.hibernate.UnknownShardException if the shard is not in the topology */
    Session open(ShardId shard) {
        topology.shard(shard);
        return sessionFactory.withOptions().tenantIdentifier(shard).openSession();
    }

    /**
     * A read-only session (entities loaded read-only too): on a replica of the shard fit for the read when read-only
     * work reads from replicas and the shard has one, else on the shard's primary. A replica's connection is held
     * until the session closes.
     */
    Session openReadOnly(ShardId shard) {
        topology.shard(shard);
        ReplicaReads.Reader reader = replicas.readOnlyWork() ? replicas.forThisThread() : null;
        Connection replica = reader == null ? null : reader.connection(shard, true);
        Session session;
        try {
            var builder = sessionFactory.withOptions().tenantIdentifier(shard).readOnly(true);
            session = (replica == null ? builder : builder.connection(replica)).openSession();
        } catch (RuntimeException e) {
            if (replica != null) {
                reader.release(replica);
            }
            throw e;
        }
        if (replica != null) {
            ((SharedSessionContractImplementor) session).getEventListenerManager().addListener(
                    new SessionEventListener() {
                        private static final long serialVersionUID = 1L;

                        @Override
                        public void end() {
                            reader.release(replica);
                        }
                    });
        }
        session.setDefaultReadOnly(true);
        return session;
    }
}
