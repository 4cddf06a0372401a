package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Several instances (factories on their own threads, released together by a barrier) booting at the same moment on a
 * fresh catalog and fresh shards of {@link #kind()}, as an orchestrator starts replicas: every boot succeeds, exactly
 * one map version is written, and every instance routes every key the same. Repeated {@link #ROUNDS} times.
 */
class ConcurrentBootTest {

    static final int ROUNDS = 10;

    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    protected int instances() {
        return 4;
    }

    @ParameterizedTest(name = "shard schema action {0}")
    @ValueSource(strings = {"create", "update"})
    void instancesBootingTogetherOnAFreshCatalogAllSucceedAndRouteAlike(String schemaAction) throws Exception {
        List<String> failures = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            try (ShardDatabases dbs = ShardDatabases.create(kind(), 2);
                 ShardDatabases catalogDatabase = ShardDatabases.create(kind(), 1)) {
                failures.addAll(bootTogether(dbs, catalogDatabase.shards().get(0), schemaAction));
            }
        }
        assertThat(failures).as(failures.size() + " failed boots out of " + ROUNDS * instances() + " on " + kind()
                + " with " + schemaAction).isEmpty();
    }

    private List<String> bootTogether(ShardDatabases dbs, ShardDatabase catalog, String schemaAction) throws Exception {
        CyclicBarrier start = new CyclicBarrier(instances());
        ExecutorService threads = Executors.newFixedThreadPool(instances());
        List<Future<ShardedSessionFactory>> boots = new ArrayList<>();
        for (int i = 0; i < instances(); i++) {
            boots.add(threads.submit(() -> {
                ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                        .virtualShards(64).connectionTimeoutMillis(10_000).schemaAction(schemaAction);
                dbs.settings().forEach(builder::property);
                builder.catalog(catalog.url(), catalog.user(), catalog.password());
                start.await();
                return builder.build();
            }));
        }
        List<String> failures = new ArrayList<>();
        List<ShardedSessionFactory> factories = new ArrayList<>();
        for (Future<ShardedSessionFactory> boot : boots) {
            try {
                factories.add(boot.get(120, TimeUnit.SECONDS));
            } catch (java.util.concurrent.ExecutionException e) {
                failures.add(e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage());
            }
        }
        threads.shutdown();
        try {
            if (factories.size() > 1) {
                ShardedSessionFactory first = factories.get(0);
                for (ShardedSessionFactory other : factories) {
                    assertThat(other.directory().version()).isEqualTo(1);
                    for (long key = 0; key < 200; key++) {
                        assertThat(other.shardFor(User.class, key)).isEqualTo(first.shardFor(User.class, key));
                    }
                }
                first.persist(new User(1L, "u1"));
                assertThat(factories.get(factories.size() - 1).find(User.class, 1L).getEmail()).isEqualTo("u1");
            }
        } finally {
            factories.forEach(ShardedSessionFactory::close);
        }
        return failures;
    }
}
