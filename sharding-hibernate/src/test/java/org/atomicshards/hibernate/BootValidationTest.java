package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.atomicshards.hibernate.badmodel.Account;
import org.atomicshards.hibernate.badmodel.Invoice;
import org.atomicshards.hibernate.badmodel.PetType;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Misconfiguration and bad models fail at boot, naming the setting, the value and the fix. */
class BootValidationTest {

    private ShardDatabases dbs;

    @BeforeEach
    void databases() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 2);
    }

    @AfterEach
    void drop() {
        dbs.close();
    }

    static Stream<Arguments> badSettings() {
        return Stream.of(
                Arguments.of("a shard without URL", (Consumer<Map<String, Object>>) s -> s.remove("atomicshards.shard.s1.url"),
                        "Setting 'atomicshards.shard.s1.url' is missing"),
                Arguments.of("a URL that is not JDBC", (Consumer<Map<String, Object>>) s -> s.put("atomicshards.shard.s1.url", "h2:mem:x"),
                        "has value 'h2:mem:x', which is not a JDBC URL. Fix: use a URL starting with 'jdbc:'"),
                Arguments.of("a shard listed twice", (Consumer<Map<String, Object>>) s -> s.put("atomicshards.shards", "s0,s1,s0"),
                        "names shard 's0' twice"),
                Arguments.of("an invalid shard name", (Consumer<Map<String, Object>>) s -> s.put("atomicshards.shards", "s0,s 1"),
                        "Invalid shard name 's 1'"),
                Arguments.of("fewer virtual than physical shards", (Consumer<Map<String, Object>>) s -> s.put("atomicshards.virtual_shards", "1"),
                        "Setting 'atomicshards.virtual_shards' has value '1', fewer than the 2 physical shards"),
                Arguments.of("a virtual shard without owner", (Consumer<Map<String, Object>>) s -> {
                    s.put("atomicshards.virtual_shards", "8");
                    s.put("atomicshards.virtual_shard_map", "0-3=s0,5-7=s1");
                }, "virtual shards 4-4 have no owner"),
                Arguments.of("a virtual shard mapped twice", (Consumer<Map<String, Object>>) s -> {
                    s.put("atomicshards.virtual_shards", "8");
                    s.put("atomicshards.virtual_shard_map", "0-4=s0,4-7=s1");
                }, "virtual shard 4 is assigned twice"),
                Arguments.of("a map naming an unknown shard", (Consumer<Map<String, Object>>) s -> {
                    s.put("atomicshards.virtual_shards", "8");
                    s.put("atomicshards.virtual_shard_map", "0-3=s0,4-7=s7");
                }, "names unknown shard 's7'"),
                Arguments.of("overlapping ranges", (Consumer<Map<String, Object>>) s -> {
                    s.put("atomicshards.unit.User.policy", "range");
                    s.put("atomicshards.unit.User.ranges", "0-99=0,50-199=1");
                }, "overlap"),
                Arguments.of("an unknown policy", (Consumer<Map<String, Object>>) s -> s.put("atomicshards.unit.User.policy", "random"),
                        "Setting 'atomicshards.unit.User.policy' has value 'random'. Fix: use one of [hash, modulo, range"),
                Arguments.of("a policy for no unit", (Consumer<Map<String, Object>>) s -> s.put("atomicshards.unit.Customer.policy", "hash"),
                        "names no atomic unit"),
                Arguments.of("pools above the total bound", (Consumer<Map<String, Object>>) s -> {
                    s.put("atomicshards.pool.max_total", "10");
                    s.put("atomicshards.pool.size", "6");
                }, "the shard pools add up to 12 connections. Fix: raise atomicshards.pool.max_total to at least 12"),
                Arguments.of("more idle connections than a pool holds", (Consumer<Map<String, Object>>) s -> {
                    s.put("atomicshards.pool.size", "4");
                    s.put("atomicshards.pool.min_idle", "5");
                }, "Setting 'atomicshards.pool.min_idle' has value '5' but the pool of shard 's0' holds at most 4 "
                        + "connections, so it could never keep that many idle. Fix: lower atomicshards.pool.min_idle to at most 4"),
                Arguments.of("an idle timeout HikariCP would ignore", (Consumer<Map<String, Object>>) s ->
                        s.put("atomicshards.pool.idle_timeout_ms", "5000"),
                        "Setting 'atomicshards.pool.idle_timeout_ms' has value '5000'. Fix: use from 10000 (HikariCP's minimum)"),
                Arguments.of("a replica without URL", (Consumer<Map<String, Object>>) s ->
                        s.put("atomicshards.shard.s1.replica.r1.user", "reader"),
                        "Setting 'atomicshards.shard.s1.replica.r1.url' is missing: replica 'r1' of shard 's1'"),
                Arguments.of("a replica whose lag cannot be measured", (Consumer<Map<String, Object>>) s ->
                        s.put("atomicshards.shard.s0.replica.r1.url", "jdbc:h2:mem:replica"),
                        "replicas are read only where their lag can be measured"),
                Arguments.of("a misspelt replica setting", (Consumer<Map<String, Object>>) s ->
                        s.put("atomicshards.shard.s0.replica.r1.uri", "jdbc:postgresql://replica/s0"),
                        "Setting 'atomicshards.shard.s0.replica.r1.uri' is not a replica setting. Fix: name a "
                                + "replica's settings atomicshards.shard.s0.replica.<name>.url"),
                Arguments.of("an invalid replica name", (Consumer<Map<String, Object>>) s ->
                        s.put("atomicshards.shard.s0.replica.r 1.url", "jdbc:postgresql://replica/s0"),
                        "names replica 'r 1'"),
                Arguments.of("a replica setting without a property", (Consumer<Map<String, Object>>) s ->
                        s.put("atomicshards.shard.s0.replica.r1", "jdbc:postgresql://replica/s0"),
                        "Setting 'atomicshards.shard.s0.replica.r1' is not a replica setting"),
                Arguments.of("a negative read-your-writes wait", (Consumer<Map<String, Object>>) s ->
                        s.put("atomicshards.replicas.read_your_writes_wait_ms", "-1"),
                        "atomicshards.replicas.read_your_writes_wait_ms"),
                Arguments.of("a negative replica lag", (Consumer<Map<String, Object>>) s ->
                        s.put("atomicshards.replicas.max_lag_ms", "-5"), "atomicshards.replicas.max_lag_ms"),
                Arguments.of("a modulo policy on a non-integral key", (Consumer<Map<String, Object>>) s ->
                        s.put("atomicshards.unit.User.key_generation", "bogus"), "Setting 'atomicshards.unit.User.key_generation' has value 'bogus'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badSettings")
    void badSettingsFailTheBoot(String what, Consumer<Map<String, Object>> change, String message) {
        Map<String, Object> settings = new java.util.LinkedHashMap<>(dbs.settings());
        change.accept(settings);
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL);
        settings.forEach(builder::property);
        assertThatThrownBy(builder::build)
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining(message);
    }

    @Test
    void aPasswordNeverAppearsInAMessage() {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                .shard("s0", "jdbc:h2:tcp://127.0.0.1:1/nowhere;PASSWORD=hunter2", "sa", "hunter2")
                .connectionTimeoutMillis(250)
                .catalog(dbs.catalogUrl());
        assertThatThrownBy(builder::build)
                .isInstanceOf(ShardUnavailableException.class)
                .hasMessageContaining("Shard 's0'")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void fortyShardsBootWithTheDefaultPoolSettings() {
        try (ShardDatabases forty = ShardDatabases.create(DatabaseKind.H2, 40)) {
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                    .catalog(forty.newCatalogUrl());
            forty.settings().forEach(builder::property);
            try (ShardedSessionFactory shards = builder.build()) {
                assertThat(shards.shards()).hasSize(40);
            }
        }
    }

    @Nested
    class ModelCheck {

        @Test
        void aModelBreakingTheRulesFailsWithTheProcessorsCodes() {
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Account.class, Invoice.class);
            dbs.settings().forEach(builder::property);
            assertThatThrownBy(builder::build)
                    .isInstanceOf(ShardedModelException.class)
                    .hasMessageContaining("[SHARD-004]")
                    .hasMessageContaining("org.atomicshards.hibernate.badmodel.Invoice")
                    .hasMessageContaining("[SHARD-015]");
        }

        @Test
        void referenceDataWithADatabaseGeneratedIdFailsWithTheProcessorsCode() {
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Account.class, PetType.class);
            dbs.settings().forEach(builder::property);
            assertThatThrownBy(builder::build)
                    .isInstanceOf(ShardedModelException.class)
                    .hasMessageContaining("[SHARD-023] Reference data org.atomicshards.hibernate.badmodel.PetType "
                            + "generates its id (attribute id) with IDENTITY")
                    .hasMessageContaining("Assign the id in the application before replicating")
                    .hasMessageNotContaining("[SHARD-015]");
        }

        @Test
        void anIndexTheRulesRefuseFailsTheBootWithTheProcessorsCode() {
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Account.class,
                    org.atomicshards.hibernate.badmodel.Badge.class);
            dbs.settings().forEach(builder::property);
            assertThatThrownBy(builder::build)
                    .isInstanceOf(ShardedModelException.class)
                    .hasMessageContaining("[SHARD-026] @ShardIndex on org.atomicshards.hibernate.badmodel.Badge.label, "
                            + "but org.atomicshards.hibernate.badmodel.Badge is reference data");
        }

        @Test
        void theCheckCanBeTurnedOffAndThenOnlyValidUnitsRoute() {
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Account.class, Invoice.class)
                    .property(ShardingSettings.MODEL_CHECK, "false");
            dbs.settings().forEach(builder::property);
            try (ShardedSessionFactory shards = builder.build()) {
                assertThat(shards.router().routingOf(Account.class)).isPresent();
                assertThat(shards.router().routingOf(Invoice.class)).isEmpty();
            }
        }
    }

    @Nested
    class Directory {

        private ShardedSessionFactory boot(Map<String, Object> extra) {
            ShardedSessionFactoryBuilder builder = Fixtures.builderOnSharedCatalog(dbs, 16);
            extra.forEach(builder::property);
            return builder.build();
        }

        @Test
        void aRestartOnTheSameCatalogRoutesEveryKeyTheSame() {
            Map<Long, ShardId> before = new java.util.HashMap<>();
            try (ShardedSessionFactory shards = boot(Map.of("atomicshards.unit.User.policy", "round_robin"))) {
                for (long id = 0; id < 50; id++) {
                    shards.persist(new User(id, "u" + id));
                    before.put(id, shards.shardFor(User.class, id).orElseThrow());
                }
                assertThat(shards.directory().version()).isEqualTo(1);
            }
            try (ShardedSessionFactory shards = boot(Map.of("atomicshards.unit.User.policy", "round_robin",
                    "jakarta.persistence.schema-generation.database.action", "validate"))) {
                before.forEach((id, shard) -> {
                    assertThat(shards.shardFor(User.class, id)).contains(shard);
                    assertThat(shards.find(User.class, id)).isNotNull();
                });
                shards.persist(new User(1000L, "next"));
                assertThat(shards.directory().version()).isEqualTo(1);
            }
        }

        @Test
        void theVirtualShardCountCannotChangeOnAnExistingCatalog() {
            boot(Map.of()).close();
            ShardedSessionFactoryBuilder builder = Fixtures.builderOnSharedCatalog(dbs, 32);
            assertThatThrownBy(builder::build)
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("'atomicshards.virtual_shards' has value '32' but the catalog's map (version 1) has 16")
                    .hasMessageContaining("Fix: set atomicshards.virtual_shards=16");
        }

        @Test
        void aShardOwningVirtualShardsCannotDisappearFromTheTopology() {
            boot(Map.of()).close();
            ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                    .virtualShards(16)
                    .shard("s0", dbs.shards().get(0).url())
                    .catalog(dbs.catalogUrl());
            assertThatThrownBy(builder::build)
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("assigns virtual shard 8 to shard 's1'")
                    .hasMessageContaining("Fix: add shard 's1' back");
        }

        @Test
        void anExplicitMapIsStoredAsVersionOneAndANewVersionFlipsOneVirtualShardForGood() {
            long keyOnVirtualShardZero;
            try (ShardedSessionFactory shards = boot(Map.of("atomicshards.virtual_shard_map", "0-3=s1,4-15=s0"))) {
                assertThat(shards.directory().virtualShardsOf(ShardId.of("s1"))).containsExactly(0, 1, 2, 3);
                keyOnVirtualShardZero = java.util.stream.LongStream.range(0, 10_000)
                        .filter(k -> Long.remainderUnsigned(org.atomicshards.hibernate.internal.routing.StableHash.of(k), 16) == 0)
                        .findFirst().orElseThrow();
                assertThat(shards.shardFor(User.class, keyOnVirtualShardZero)).contains(ShardId.of("s1"));
                ((org.atomicshards.hibernate.internal.directory.CachedShardDirectory) shards.directory())
                        .assign(0, ShardId.of("s0"), "move virtual shard 0 to s0");
                assertThat(shards.directory().version()).isEqualTo(2);
                assertThat(shards.shardFor(User.class, keyOnVirtualShardZero)).contains(ShardId.of("s0"));
            }
            assertThatThrownBy(() -> boot(Map.of("atomicshards.virtual_shard_map", "0-3=s1,4-15=s0")))
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("'atomicshards.virtual_shard_map' differs from the map in force in the catalog (version 2)");
            try (ShardedSessionFactory shards = boot(Map.of())) {
                assertThat(shards.directory().version()).isEqualTo(2);
                assertThat(shards.shardFor(User.class, keyOnVirtualShardZero)).contains(ShardId.of("s0"));
            }
        }
    }
}
