package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceConfiguration;
import org.atomicshards.hibernate.model.Country;
import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.jpa.HibernatePersistenceProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The same runtime from a JPA bootstrap: only {@code atomicshards.*} properties (as persistence.xml or Spring would
 * pass them), Hibernate's standard schema action applied to every shard, EntityManagers bound by the shard scope.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JpaBootstrapTest {

    /** Where the shards live; the {@code *IT} subclasses run the same tests on PostgreSQL and MariaDB. */
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    private ShardDatabases dbs;
    private EntityManagerFactory emf;

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(kind(), 3);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    @BeforeEach
    void boot() {
        PersistenceConfiguration configuration = new PersistenceConfiguration("sharded")
                .provider(HibernatePersistenceProvider.class.getName())
                .managedClass(User.class).managedClass(Status.class).managedClass(Photo.class).managedClass(Country.class)
                .property(PersistenceConfiguration.SCHEMAGEN_DATABASE_ACTION, "create")
                .property(ShardingSettings.VIRTUAL_SHARDS, "12");
        dbs.settings().forEach(configuration::property);
        configuration.property(ShardingSettings.CATALOG_URL, dbs.newCatalogUrl());
        emf = configuration.createEntityManagerFactory();
    }

    @AfterEach
    void close() {
        emf.close();
    }

    @Test
    void theSchemaExistsOnEveryShardAndRoutingWorksThroughTheWrapper() {
        ShardedSessionFactory shards = AtomicShards.from(emf);
        assertThat(shards.sessionFactory()).isSameAs(emf.unwrap(org.hibernate.SessionFactory.class));
        for (long id = 0; id < 30; id++) {
            shards.persist(new User(id, "u" + id));
        }
        assertThat(Fixtures.rowsPerShard(dbs, "app_user").values()).allSatisfy(rows -> assertThat(rows).isPositive());
        assertThat(Fixtures.totalRows(dbs, "app_user")).isEqualTo(30);
    }

    @Test
    void anEntityManagerIsBoundToTheShardOfTheEnclosingScope() {
        ShardedSessionFactory shards = AtomicShards.from(emf);
        shards.persist(new User(5L, "five"));
        ShardId owner = shards.shardFor(User.class, 5L).orElseThrow();
        String email = ShardScope.callOn(owner, () -> {
            EntityManager em = emf.createEntityManager();
            try {
                return em.find(User.class, 5L).getEmail();
            } finally {
                em.close();
            }
        });
        assertThat(email).isEqualTo("five");
        ShardId other = shards.shards().stream().filter(s -> !s.equals(owner)).findFirst().orElseThrow();
        ShardScope.runOn(other, () -> {
            EntityManager em = emf.createEntityManager();
            try {
                assertThat(em.find(User.class, 5L)).isNull();
                em.getTransaction().begin();
                em.persist(new User(5L, "a copy on the wrong shard"));
                assertThatThrownBy(em::flush).isInstanceOf(WrongShardException.class);
                em.getTransaction().rollback();
            } finally {
                em.close();
            }
        });
        assertThat(Fixtures.totalRows(dbs, "app_user")).isEqualTo(1);
    }

    @Test
    void theDefaultShardServesEntityManagersOpenedOutsideAnyScope() {
        PersistenceConfiguration configuration = new PersistenceConfiguration("sharded-with-default")
                .provider(HibernatePersistenceProvider.class.getName())
                .managedClass(User.class).managedClass(Status.class).managedClass(Photo.class).managedClass(Country.class)
                .property(ShardingSettings.VIRTUAL_SHARDS, "12")
                .property(ShardingSettings.DEFAULT_SHARD, "s1");
        dbs.settings().forEach(configuration::property);
        configuration.property(ShardingSettings.CATALOG_URL, dbs.newCatalogUrl());
        try (EntityManagerFactory withDefault = configuration.createEntityManagerFactory()) {
            EntityManager em = withDefault.createEntityManager();
            try {
                assertThat(em.unwrap(org.hibernate.Session.class).getTenantIdentifierValue()).isEqualTo(ShardId.of("s1"));
                ShardId inScope = ShardScope.callOn(ShardId.of("s2"), () -> {
                    EntityManager scoped = withDefault.createEntityManager();
                    try {
                        return (ShardId) scoped.unwrap(org.hibernate.Session.class).getTenantIdentifierValue();
                    } finally {
                        scoped.close();
                    }
                });
                assertThat(inScope).isEqualTo(ShardId.of("s2"));
            } finally {
                em.close();
            }
        }
    }

    @Test
    void aDefaultShardOutsideTheTopologyFailsTheBoot() {
        PersistenceConfiguration configuration = new PersistenceConfiguration("sharded-bad-default")
                .provider(HibernatePersistenceProvider.class.getName())
                .managedClass(User.class).managedClass(Status.class).managedClass(Photo.class).managedClass(Country.class)
                .property(ShardingSettings.DEFAULT_SHARD, "s9");
        dbs.settings().forEach(configuration::property);
        assertThatThrownBy(configuration::createEntityManagerFactory)
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining("Setting 'atomicshards.default_shard' names unknown shard 's9'");
    }

    @Test
    void withoutAScopeOrDefaultShardNoEntityManagerCanBeOpened() {
        assertThatThrownBy(() -> emf.createEntityManager().find(User.class, 1L))
                .hasMessageContaining("tenant identifier");
    }

    @Test
    void closingTheEntityManagerFactoryStopsTheFanOutThreads() throws InterruptedException {
        Set<Thread> before = fanOutThreads();
        ShardedSessionFactory shards = AtomicShards.from(emf);
        shards.persist(new User(1L, "one"));
        assertThat(shards.fanOut().createQuery("select u from User u", User.class).getResultList()).hasSize(1);
        Set<Thread> started = fanOutThreads();
        started.removeAll(before);
        assertThat(started).as("threads the fan-out ran on").isNotEmpty();

        emf.close();

        // Idle executor threads would also end by themselves after their keep-alive (30 s): allow far less.
        long deadline = System.nanoTime() + 3_000_000_000L;
        for (Thread thread : started) {
            thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }
        assertThat(started).as("fan-out threads alive after EntityManagerFactory.close()")
                .filteredOn(Thread::isAlive).extracting(Thread::getName).isEmpty();
    }

    private static Set<Thread> fanOutThreads() {
        Set<Thread> threads = new HashSet<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith("atomic-shards-fanout-")) {
                threads.add(thread);
            }
        }
        return threads;
    }
}
