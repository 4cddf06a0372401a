package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.hibernate.admin.ReplicaStatus;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replicas that cannot be reached (here: a PostgreSQL URL on a closed port, beside H2 shards) never fail a read: it
 * goes to the primary, the skip is counted, the status names the replica DOWN without its password, and an
 * application that names replicas but does not ask for replica reads never touches them.
 */
class ReplicaFallbackTest {

    private static final String UNREACHABLE = "jdbc:postgresql://127.0.0.1:1/nowhere?password=hunter2";

    private ShardDatabases dbs;

    @BeforeEach
    void databases() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 2);
    }

    @AfterEach
    void drop() {
        dbs.close();
    }

    private ShardedSessionFactoryBuilder withUnreachableReplicas(SimpleMeterRegistry meters) {
        return Fixtures.builder(dbs, 8).meterRegistry(meters)
                .replica("s0", "r1", UNREACHABLE)
                .replica("s1", "r1", UNREACHABLE);
    }

    @Test
    void readsAskingForAnUnreachableReplicaAreAnsweredByThePrimaryAndTheSkipIsCounted() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (ShardedSessionFactory shards = withUnreachableReplicas(meters).readOnlyWorkOnReplicas(1_000).build()) {
            Fixtures.seedUsersWithTwoStatuses(shards, 10);
            long key = Fixtures.keyOn(shards, ShardId.of("s0"), 1_000);
            shards.inUnit(User.class, key, session -> session.persist(new User(key, "on s0")));

            try (Session session = shards.openReadOnlySession(ShardId.of("s0"))) {
                assertThat(session.find(User.class, key)).isNotNull();
            }
            String email = shards.readInUnit(User.class, key, session -> session.find(User.class, key).getEmail());
            assertThat(email).isEqualTo("on s0");
            List<Long> ids = shards.fanOut().createQuery("select u.id from User u", Long.class)
                    .setReadFromReplicas(true).getResultList();
            assertThat(ids).hasSize(11);

            assertThat(meters.find("atomicshards.replica.skipped").tag("reason", "DOWN").counters())
                    .isNotEmpty().allSatisfy(counter -> assertThat(counter.count()).isPositive());
            assertThat(meters.find("atomicshards.replica.reads").counters()).isEmpty();
            List<ReplicaStatus> replicas = shards.admin().replicas();
            assertThat(replicas).extracting(ReplicaStatus::shard, ReplicaStatus::state)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("s0", "DOWN"),
                            org.assertj.core.groups.Tuple.tuple("s1", "DOWN"));
            assertThat(replicas.toString()).doesNotContain("hunter2");
        }
    }

    @Test
    void namingReplicasWithoutAskingForReplicaReadsChangesNothing() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (ShardedSessionFactory shards = withUnreachableReplicas(meters).build()) {
            Fixtures.seedUsersWithTwoStatuses(shards, 4);
            try (Session session = shards.openReadOnlySession(ShardId.of("s1"))) {
                session.createQuery("select count(u) from User u", Long.class).getSingleResult();
            }
            shards.fanOut().createQuery("select count(u) from User u", Long.class).getResultList();
            assertThat(shards.readOnlyWorkOnReplicas()).isFalse();
            assertThat(meters.find("atomicshards.replica.skipped").counters()).isEmpty();
            assertThat(meters.find("atomicshards.replica.reads").counters()).isEmpty();
        }
    }

    /** A shard added at run time reads through the replicas this instance's settings name for its id. */
    @Test
    void aShardAddedAtRunTimeBringsTheReplicasTheSettingsNameForIt() {
        try (ShardDatabases three = ShardDatabases.create(DatabaseKind.H2, 3);
             ShardedSessionFactory shards = Fixtures.builderWithFirst(three, 8, 2, three.catalogUrl())
                     .replica("s2", "r1", UNREACHABLE).readOnlyWorkOnReplicas(1_000).build()) {
            assertThat(shards.admin().replicas()).as("s2 is not in the topology yet").isEmpty();

            ShardDatabase s2 = three.shards().get(2);
            shards.admin().addShard(s2.id(), s2.url(), s2.user(), s2.password());

            assertThat(shards.admin().replicas()).extracting(ReplicaStatus::shard, ReplicaStatus::name,
                    ReplicaStatus::state).containsExactly(org.assertj.core.groups.Tuple.tuple("s2", "r1", "DOWN"));
            try (Session session = shards.openReadOnlySession(ShardId.of("s2"))) {
                assertThat(session.createQuery("select count(u) from User u", Long.class).getSingleResult())
                        .as("answered by the primary").isZero();
            }
        }
    }
}
