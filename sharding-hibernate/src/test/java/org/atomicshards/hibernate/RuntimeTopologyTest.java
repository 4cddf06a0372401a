package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.atomicshards.hibernate.admin.ShardAdded;
import org.atomicshards.hibernate.admin.ShardStillOwnsDataException;
import org.atomicshards.hibernate.admin.ShardTopologyException;
import org.atomicshards.hibernate.internal.boot.ShardingRuntime;
import org.atomicshards.hibernate.model.Country;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The run-time topology: {@code ShardAdmin.addShard} / {@code removeShard} on a running factory, a second factory on
 * the same catalog following it, a restart reading it back, and boot configurations that contradict it. Three shard
 * databases of {@link #kind()}; the factories are configured with s0 and s1 (64 virtual shards, s0 owns 0-31, s1
 * owns 32-63) and s2 is added at run time.
 */
class RuntimeTopologyTest {

    static final int VIRTUAL_SHARDS = 64;
    static final ShardId S0 = ShardId.of("s0");
    static final ShardId S1 = ShardId.of("s1");
    static final ShardId S2 = ShardId.of("s2");

    ShardDatabases dbs;
    final List<ShardedSessionFactory> factories = new ArrayList<>();

    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    @BeforeEach
    void createDatabases() {
        dbs = ShardDatabases.create(kind(), 3);
    }

    @AfterEach
    void closeAll() {
        factories.forEach(ShardedSessionFactory::close);
        dbs.close();
    }

    /** A factory configured with s0 and s1 on the shared catalog, refreshing every 200 ms. */
    ShardedSessionFactory boot(Map<String, Object> extra) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                .virtualShards(VIRTUAL_SHARDS).connectionTimeoutMillis(5_000).schemaAction("update");
        configuredSettings().forEach(builder::property);
        builder.property(ShardingSettings.CATALOG_REFRESH_INTERVAL, 200);
        extra.forEach(builder::property);
        ShardedSessionFactory factory = builder.build();
        factories.add(factory);
        return factory;
    }

    ShardedSessionFactory boot() {
        return boot(Map.of());
    }

    /** The settings of {@link #dbs} without s2. */
    Map<String, Object> configuredSettings() {
        Map<String, Object> settings = new LinkedHashMap<>(dbs.settings());
        settings.keySet().removeIf(key -> key.startsWith("atomicshards.shard.s2."));
        settings.put(ShardingSettings.SHARDS, "s0,s1");
        return settings;
    }

    /** s2's user and password for an instance that takes s2 over from the catalog (none on H2). */
    Map<String, Object> s2Credentials() {
        ShardDatabase s2 = dbs.shards().get(2);
        Map<String, Object> settings = new LinkedHashMap<>();
        if (s2.user() != null) {
            settings.put("atomicshards.shard.s2.user", s2.user());
            settings.put("atomicshards.shard.s2.password", s2.password());
        }
        return settings;
    }

    ShardAdded addS2(ShardedSessionFactory factory) {
        ShardDatabase s2 = dbs.shards().get(2);
        return factory.admin().addShard("s2", s2.url(), s2.user(), s2.password());
    }

    static ShardingRuntime runtime(ShardedSessionFactory factory) {
        return ((SessionFactoryImplementor) factory.sessionFactory()).getServiceRegistry()
                .requireService(MultiTenantConnectionProvider.class).unwrap(ShardingRuntime.class);
    }

    /** The first key from {@code from} on whose virtual shard is {@code virtualShard}. */
    static long keyOnVirtualShard(ShardedSessionFactory factory, int virtualShard, long from) {
        var placement = runtime(factory).router().unitOf(User.class).placement();
        for (long key = from; ; key++) {
            if (placement.virtualShardOf(key) == virtualShard) {
                return key;
            }
        }
    }

    long count(String shard, String sql) {
        try (Connection c = dbs.connect(shard); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static long fanOutCount(ShardedSessionFactory factory) {
        return factory.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult();
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Not within 15 s: " + what);
            }
            Thread.sleep(50);
        }
    }

    Map<String, String> catalogShards() {
        Map<String, String> shards = new LinkedHashMap<>();
        try (Connection c = java.sql.DriverManager.getConnection(dbs.catalogUrl());
             PreparedStatement ps = c.prepareStatement("select shard_id, status, url, origin from as_shard order by shard_id");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                shards.put(rs.getString(1), rs.getString(2) + " " + rs.getString(4) + " " + rs.getString(3));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return shards;
    }

    @Nested
    class AddingAShard {

        @Test
        void createsItsSchemaCopiesReferenceDataAndRecordsItOwningNothing() {
            ShardedSessionFactory factory = boot();
            factory.replicate(session -> {
                session.persist(new Country("FR", "France"));
                session.persist(new Country("DE", "Germany"));
            });
            factory.persist(new User(1L, "a@example.org"));

            ShardAdded added = addS2(factory);

            assertThat(added.shard()).isEqualTo(S2);
            assertThat(added.referenceRowsCopied()).containsEntry(Country.class.getName(), 2L);
            assertThat(added.divergences()).isEmpty();
            assertThat(count("s2", "select count(*) from app_user")).isZero(); // the schema exists, empty
            assertThat(count("s2", "select count(*) from Country")).isEqualTo(2);
            assertThat(factory.shards()).containsExactly(S0, S1, S2);
            assertThat(factory.router().shards()).as("owns nothing: not queried").containsExactly(S0, S1);
            assertThat(fanOutCount(factory)).isEqualTo(1);
            assertThat(catalogShards().get("s2")).startsWith("ONLINE ADMIN jdbc:");
            assertThat(catalogShards().get("s2")).doesNotContainIgnoringCase("password=");
            assertThat(catalogShards().get("s0")).startsWith("ONLINE CONFIG jdbc:");
        }

        @Test
        void aNewShardIsQueriedOnceItOwnsAVirtualShardAndReceivesItsUnits() {
            ShardedSessionFactory factory = boot();
            addS2(factory);
            int moved = 5;
            factory.admin().move(Set.of(moved), S2);
            long key = keyOnVirtualShard(factory, moved, 1);
            factory.persist(new User(key, "moved@example.org"));
            factory.persist(new User(keyOnVirtualShard(factory, 40, 1), "s1@example.org"));

            assertThat(factory.shardFor(User.class, key)).contains(S2);
            assertThat(count("s2", "select count(*) from app_user")).isEqualTo(1);
            assertThat(factory.router().shards()).containsExactly(S0, S1, S2);
            assertThat(fanOutCount(factory)).isEqualTo(2);
            assertThat(factory.find(User.class, key).getEmail()).isEqualTo("moved@example.org");
            factory.replicate(session -> session.persist(new Country("IT", "Italy")));
            assertThat(count("s2", "select count(*) from Country")).isEqualTo(1);
        }

        @Test
        void reportsReferenceDataThatDiffersBetweenShards() throws SQLException {
            ShardedSessionFactory factory = boot();
            factory.replicate(session -> session.persist(new Country("FR", "France")));
            try (Connection c = dbs.connect("s1"); Statement s = c.createStatement()) {
                s.executeUpdate("update Country set name = 'Frankreich' where code = 'FR'");
                if (!c.getAutoCommit()) {
                    c.commit();
                }
            }

            ShardAdded added = addS2(factory);

            assertThat(added.referenceDataSource()).isEqualTo(S0);
            assertThat(added.divergences()).singleElement().satisfies(divergence -> {
                assertThat(divergence.entity()).isEqualTo(Country.class.getName());
                assertThat(divergence.groups()).hasSize(2);
                assertThat(divergence.groups().get(0).shards()).containsExactly(S0, S2);
                assertThat(divergence.groups().get(1).shards()).containsExactly(S1);
            });
        }

        @Test
        void isRefusedForATakenIdAndNothingChanges() {
            ShardedSessionFactory factory = boot();
            ShardDatabase s2 = dbs.shards().get(2);
            assertThatThrownBy(() -> factory.admin().addShard("s1", s2.url(), s2.user(), s2.password()))
                    .isInstanceOf(ShardTopologyException.class)
                    .hasMessageContaining("Cannot add shard 's1'").hasMessageContaining("choose another id");
            assertThatThrownBy(() -> factory.admin().addShard("s2", "postgresql://nowhere", null, null))
                    .isInstanceOf(ShardTopologyException.class).hasMessageContaining("not a JDBC URL");
            assertThat(factory.shards()).containsExactly(S0, S1);
            assertThat(catalogShards()).doesNotContainKey("s2");
        }

        @Test
        void anUnreachableDatabaseIsRefusedNamingTheShardAndNothingIsRecorded() {
            ShardedSessionFactory factory = boot();
            assertThatThrownBy(() -> factory.admin().addShard("s2", "jdbc:h2:tcp://127.0.0.1:1/nothing", "app",
                    "secret-pw"))
                    .isInstanceOf(ShardUnavailableException.class)
                    .hasMessageContaining("Cannot add shard 's2'").hasMessageContaining("Nothing was recorded")
                    .hasMessageNotContaining("secret-pw");
            assertThat(factory.shards()).containsExactly(S0, S1);
            assertThat(catalogShards()).doesNotContainKey("s2");
            assertThat(runtime(factory).pools().isStarted(S2)).isFalse();
            addS2(factory); // the id is still free
            assertThat(factory.shards()).containsExactly(S0, S1, S2);
        }

        @Test
        void unitsOfWorkAndFanOutsKeepRunningWhileAShardIsAdded() throws Exception {
            ShardedSessionFactory factory = boot();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong nextKey = new AtomicLong(1);
            Map<Long, Boolean> acknowledged = new ConcurrentHashMap<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            ExecutorService threads = Executors.newFixedThreadPool(4);
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                boolean reader = t == 3;
                workers.add(threads.submit(() -> {
                    while (running.get()) {
                        try {
                            if (reader) {
                                assertThat(fanOutCount(factory)).isGreaterThanOrEqualTo(0);
                                factory.replicate(session -> session.merge(new Country("FR", "France")));
                            } else {
                                long key = nextKey.getAndIncrement();
                                factory.inUnit(User.class, key, session -> session.persist(new User(key, "u" + key)));
                                acknowledged.put(key, true);
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }
                }));
            }
            Thread.sleep(200);
            addS2(factory);
            factory.admin().move(java.util.Set.of(7), S2); // online, while the workers run
            Thread.sleep(300);
            running.set(false);
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
            threads.shutdown();

            assertThat(failures).isEmpty();
            assertThat(acknowledged).isNotEmpty();
            long stored = count("s0", "select count(*) from app_user") + count("s1", "select count(*) from app_user")
                    + count("s2", "select count(*) from app_user");
            assertThat(stored).isEqualTo(acknowledged.size());
            assertThat(fanOutCount(factory)).as("the move of virtual shard 7 took its users to s2")
                    .isEqualTo(stored);
            assertThat(count("s2", "select count(*) from Country")).isEqualTo(1);
        }
    }

    @Nested
    class RemovingAShard {

        @Test
        void isRefusedWhileItOwnsVirtualShardsNamingThem() {
            ShardedSessionFactory factory = boot();
            assertThatThrownBy(() -> factory.admin().removeShard("s1"))
                    .isInstanceOfSatisfying(ShardStillOwnsDataException.class, e -> {
                        assertThat(e.shard()).isEqualTo(S1);
                        assertThat(e.virtualShards()).hasSize(32).startsWith(32);
                    })
                    .hasMessageContaining("Cannot remove shard 's1'")
                    .hasMessageContaining("virtual shards 32-63 (32 of 64")
                    .hasMessageContaining("Nothing was changed");
            assertThat(factory.shards()).containsExactly(S0, S1);
            assertThat(catalogShards().get("s1")).startsWith("ONLINE");
        }

        @Test
        void isRefusedWhileItOwnsPlacementsOfLookupUnits() {
            ShardedSessionFactory factory = boot(Map.of("atomicshards.unit.User.policy", "lookup"));
            addS2(factory);
            factory.admin().move(Set.of(9), S2);
            factory.place(User.class, 77L, S2);
            assertThatThrownBy(() -> factory.admin().removeShard(S2))
                    .isInstanceOf(ShardStillOwnsDataException.class)
                    .hasMessageContaining("virtual shards 9 (1 of 64")
                    .hasMessageContaining("1 placements");
        }

        @Test
        void isRefusedWhileItIsAMemberOfAConsistentHashRing() {
            ShardedSessionFactory factory = boot(Map.of("atomicshards.unit.User.policy", "consistent_hash"));
            addS2(factory);
            assertThat(factory.router().shards()).containsExactly(S0, S1);
            runtime(factory).directory().addRingMember(User.class.getName(), S2);

            assertThat(factory.router().shards()).containsExactly(S0, S1, S2);
            long onS2 = 0;
            for (long key = 1; key <= 300; key++) {
                if (factory.shardFor(User.class, key).orElseThrow().equals(S2)) {
                    onS2++;
                }
            }
            assertThat(onS2).as("the ring gives s2 about a third of the keys").isBetween(60L, 140L);
            assertThatThrownBy(() -> factory.admin().removeShard(S2))
                    .isInstanceOf(ShardStillOwnsDataException.class)
                    .hasMessageContaining("consistent-hash ring of [" + User.class.getName() + "]");

            runtime(factory).directory().removeRingMember(User.class.getName(), S2);
            factory.admin().removeShard(S2);
            assertThat(factory.shards()).containsExactly(S0, S1);
        }

        @Test
        void closesTheRetiredShardsPoolOnlyAfterTheWorkInFlightOnIt() throws Exception {
            ShardedSessionFactory factory = boot();
            addS2(factory);
            var session = factory.openSession(S2);
            session.beginTransaction();
            session.createSelectionQuery("select count(u) from User u", Long.class).getSingleResult();
            ExecutorService remover = Executors.newSingleThreadExecutor();
            Future<?> removal = remover.submit(() -> factory.admin().removeShard(S2));
            Thread.sleep(500);

            assertThat(removal).isNotDone();
            assertThat(factory.shards()).containsExactly(S0, S1);
            assertThat(session.createSelectionQuery("select count(u) from User u", Long.class).getSingleResult())
                    .as("the work in flight keeps its connection").isZero();
            session.getTransaction().commit();
            session.close();
            removal.get(10, TimeUnit.SECONDS);
            remover.shutdown();
            assertThat(runtime(factory).pools().isStarted(S2)).isFalse();
        }

        @Test
        void retiresAShardThatOwnsNothing() {
            ShardedSessionFactory factory = boot();
            addS2(factory);
            try (var session = factory.openSession(S2)) {
                assertThat(session.createSelectionQuery("select count(u) from User u", Long.class).getSingleResult())
                        .isZero();
            }

            factory.admin().removeShard(S2);

            assertThat(factory.shards()).containsExactly(S0, S1);
            assertThat(catalogShards().get("s2")).startsWith("RETIRED");
            assertThat(runtime(factory).pools().isStarted(S2)).isFalse();
            assertThatThrownBy(() -> factory.openSession(S2)).isInstanceOf(UnknownShardException.class);
            assertThatThrownBy(() -> addS2(factory))
                    .isInstanceOf(ShardTopologyException.class).hasMessageContaining("RETIRED");
            assertThatThrownBy(() -> factory.admin().removeShard(S2)).isInstanceOf(UnknownShardException.class);
        }
    }

    @Nested
    class TwoInstancesOnOneCatalog {

        @Test
        void theSecondInstanceFollowsARingMemberAddedByTheFirst() throws Exception {
            Map<String, Object> ring = new LinkedHashMap<>(s2Credentials());
            ring.put("atomicshards.unit.User.policy", "consistent_hash");
            ShardedSessionFactory first = boot(Map.of("atomicshards.unit.User.policy", "consistent_hash"));
            ShardedSessionFactory second = boot(ring);
            addS2(first);
            runtime(first).directory().addRingMember(User.class.getName(), S2);

            await("the second instance routes with the new ring", () -> second.router().shards().contains(S2));
            for (long key = 1; key <= 200; key++) {
                assertThat(second.shardFor(User.class, key)).isEqualTo(first.shardFor(User.class, key));
            }
        }

        @Test
        void theSecondInstanceTakesOverAShardTheFirstAddedAndRoutesToIt() throws Exception {
            ShardedSessionFactory first = boot();
            ShardedSessionFactory second = boot(s2Credentials());
            addS2(first);
            first.admin().move(Set.of(3), S2);
            long key = keyOnVirtualShard(first, 3, 1);
            first.persist(new User(key, "on-s2@example.org"));

            await("the second instance has s2 and the new map", () -> second.shards().contains(S2)
                    && second.shardFor(User.class, key).orElseThrow().equals(S2));
            assertThat(second.find(User.class, key).getEmail()).isEqualTo("on-s2@example.org");
            assertThat(second.router().shards()).containsExactly(S0, S1, S2);
            assertThat(fanOutCount(second)).isEqualTo(1);

            first.admin().move(Set.of(3), S0);
            first.admin().removeShard(S2);
            // the refresher takes s2 out of the topology first, then closes its pool once no work is in flight on it
            await("the second instance drops s2 and closes its pool",
                    () -> !second.shards().contains(S2) && !runtime(second).pools().isStarted(S2));
        }

        /**
         * An instance that has not refreshed its topology yet (here: never) meets a unit moved to a shard another
         * instance added: the fence (for a unit of work) and the ownership check (for a fan-out) send it to the
         * catalog's new map, which names the new shard; it takes the shard over then instead of failing until its
         * next topology refresh.
         */
        @Test
        void anInstanceOnAnOldMapTakesOverTheShardItsNewMapNames() {
            Map<String, Object> neverRefreshed = new LinkedHashMap<>(s2Credentials());
            neverRefreshed.put(ShardingSettings.CATALOG_REFRESH_INTERVAL, 0);
            ShardedSessionFactory first = boot();
            ShardedSessionFactory writer = boot(neverRefreshed);
            ShardedSessionFactory reader = boot(neverRefreshed);
            long key = keyOnVirtualShard(first, 3, 1);
            writer.persist(new User(key, "before@example.org"));
            addS2(first);
            first.admin().move(java.util.Set.of(3), S2);
            assertThat(writer.shards()).doesNotContain(S2);

            writer.inUnit(User.class, key, session -> session.find(User.class, key).setEmail("after@example.org"));
            assertThat(fanOutCount(reader)).isEqualTo(1);

            assertThat(writer.shards()).contains(S2);
            assertThat(reader.shards()).contains(S2);
            assertThat(count("s2", "select count(*) from app_user where email = 'after@example.org'")).isEqualTo(1);
            assertThat(count("s0", "select count(*) from app_user")).isZero();
        }

        @Test
        void anInstanceThatCannotReachTheNewShardFailsNamingTheShardAndTheSettings() throws Exception {
            ShardedSessionFactory first = boot();
            Map<String, Object> wrong = new LinkedHashMap<>();
            wrong.put("atomicshards.shard.s2.url", "jdbc:h2:tcp://127.0.0.1:1/unreachable");
            ShardedSessionFactory second = boot(wrong);
            addS2(first);
            first.admin().move(Set.of(3), S2);
            long key = keyOnVirtualShard(first, 3, 1);

            await("the second instance routes the key to s2",
                    () -> second.shardFor(User.class, key).map(S2::equals).orElse(false));
            assertThatThrownBy(() -> second.find(User.class, key))
                    .isInstanceOf(ShardUnavailableException.class)
                    .hasMessageContaining("Shard 's2'")
                    .hasMessageContaining("atomicshards.shard.s2.user")
                    .hasMessageContaining("atomicshards.shard.s2.url");
        }
    }

    @Nested
    class Restart {

        @Test
        void readsTheShardsAddedAtRunTimeFromTheCatalog() {
            ShardedSessionFactory first = boot();
            addS2(first);
            first.admin().move(Set.of(3), S2);
            long key = keyOnVirtualShard(first, 3, 1);
            first.persist(new User(key, "kept@example.org"));
            first.close();
            factories.remove(first);

            ShardedSessionFactory restarted = boot(s2Credentials());

            assertThat(restarted.shards()).containsExactly(S0, S1, S2);
            assertThat(restarted.shardFor(User.class, key)).contains(S2);
            assertThat(restarted.find(User.class, key).getEmail()).isEqualTo("kept@example.org");
            assertThat(fanOutCount(restarted)).isEqualTo(1);
        }

        @Test
        void failsWhenAShardAddedAtRunTimeCannotBeReachedNamingItAndItsSettings() {
            ShardedSessionFactory first = boot();
            addS2(first);
            first.close();
            factories.clear();
            Map<String, Object> elsewhere = new LinkedHashMap<>(s2Credentials());
            elsewhere.put("atomicshards.shard.s2.url", "jdbc:h2:tcp://127.0.0.1:1/unreachable");
            assertThatThrownBy(() -> boot(elsewhere))
                    .isInstanceOf(ShardUnavailableException.class)
                    .hasMessageContaining("Shard 's2'")
                    .hasMessageContaining("atomicshards.shard.s2.url")
                    .hasMessageContaining(ShardingSettings.BOOT_CONNECTION_CHECK);
        }

        @Test
        void failsWhenTheConfigurationLacksAConfiguredShardThatOwnsVirtualShards() {
            boot().close();
            factories.clear();
            Map<String, Object> withoutS1 = new LinkedHashMap<>(configuredSettings());
            withoutS1.put(ShardingSettings.SHARDS, "s0");
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                    .virtualShards(VIRTUAL_SHARDS).schemaAction("update");
            withoutS1.forEach(builder::property);
            assertThatThrownBy(builder::build)
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("Setting 'atomicshards.shards' has value 's0'")
                    .hasMessageContaining("the catalog's map (version 1) assigns virtual shard 32 to shard 's1'")
                    .hasMessageContaining("Fix: add shard 's1' back");
        }

        @Test
        void failsWhenTheVirtualShardCountDiffers() {
            boot().close();
            factories.clear();
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                    .virtualShards(128).schemaAction("update");
            configuredSettings().forEach(builder::property);
            assertThatThrownBy(builder::build)
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("'atomicshards.virtual_shards' has value '128'")
                    .hasMessageContaining("has 64 virtual shards")
                    .hasMessageContaining("Fix: set atomicshards.virtual_shards=64");
        }

        @Test
        void failsWhenTheConfigurationListsARetiredShard() {
            ShardedSessionFactory first = boot();
            addS2(first);
            first.admin().removeShard(S2);
            first.close();
            factories.clear();
            Map<String, Object> withS2 = new LinkedHashMap<>(dbs.settings());
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                    .virtualShards(VIRTUAL_SHARDS).schemaAction("update");
            withS2.forEach(builder::property);
            assertThatThrownBy(builder::build)
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("lists shard 's2'")
                    .hasMessageContaining("records it RETIRED")
                    .hasMessageContaining("Fix: remove 's2' from atomicshards.shards");
        }
    }
}
