package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.atomicshards.hibernate.admin.ReplicaStatus;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.hibernate.Session;
import org.junit.jupiter.api.Test;

class ReplicaReadsPostgresIT extends ReplicaReadsContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }

    @Override
    protected String stopCommand() {
        return "pg-stop";
    }

    @Override
    protected boolean pausedReplicaReportsItsLag() {
        return true;
    }

    @Override
    protected String startCommand() {
        return "pg-start";
    }

    /** A standby promoted to a primary of its own diverges from the shard: no read may use it. */
    @Test
    void aPromotedStandbyIsNeverReadAgain() {
        try (ShardedSessionFactory shards = factory(60_000)) {
            replicas().promote();
            try {
                long key = Fixtures.keyOn(shards, ShardId.of("s0"), 6_000);
                shards.inUnit(User.class, key,
                        session -> session.persist(new User(key, "after")));
                try (Session session = shards.openReadOnlySession(ShardId.of("s0"))) {
                    assertThat(replicas().isReplicaPort(port(session))).isFalse();
                    assertThat(session.find(User.class, key)).isNotNull();
                }
                assertThat(counted("atomicshards.replica.skipped", "NOT_REPLICATING")).isPositive();
                assertThat(shards.admin().replicas()).extracting(ReplicaStatus::state).containsOnly("NOT_REPLICATING");
            } finally {
                replicas().control("pg-recreate");
            }
            replicas().awaitCaughtUp(Duration.ofSeconds(60));
        }
    }
}
