package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.directory.CatalogOptions;
import org.atomicshards.hibernate.internal.directory.CatalogSchemaAction;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The catalog going away after boot (a catalog database behind a {@link TcpProxy} that goes down and up again; here
 * an H2 server, in the {@code *IT} subclass PostgreSQL): units of work and fan-outs over known keys keep
 * routing from memory; what needs the catalog (a new id block, a new round-robin placement, a map refresh) fails
 * with {@link CatalogUnavailableException} within the catalog's connection timeout, naming the catalog without its
 * password; all of it works again once the catalog is back, without a restart, and nothing is written twice.
 */
class CatalogOutageTest {

    static final long CONNECTION_TIMEOUT = 1000;

    protected ShardDatabases dbs;
    protected TcpProxy proxy;
    private Server server;
    private String database;
    private Connection keepAlive;

    /** The catalog's JDBC URL (through the proxy), with a password parameter the messages must not show. */
    protected String catalogUrl() {
        return "jdbc:h2:tcp://127.0.0.1:" + proxy.port() + "/mem:" + database + ";PASSWORD=hunter2secret";
    }

    /** What the messages show of the catalog. */
    protected String catalogShownAs() {
        return "jdbc:h2:tcp://127.0.0.1:" + proxy.port() + "/mem:" + database;
    }

    protected String catalogUser() {
        return null;
    }

    protected String catalogPassword() {
        return null;
    }

    /** Creates the catalog database and {@link #proxy} in front of its server. */
    protected void startCatalogDatabase() throws Exception {
        database = "outage_" + System.nanoTime();
        // an embedded connection keeps the in-memory database alive whatever happens to the remote sessions
        keepAlive = DriverManager.getConnection("jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1", "", "hunter2secret");
        server = Server.createTcpServer("-tcpPort", "0").start();
        proxy = new TcpProxy("127.0.0.1", server.getPort());
    }

    protected void dropCatalogDatabase() throws Exception {
        try {
            proxy.close();
            server.stop();
        } finally {
            try (Connection c = keepAlive; Statement s = c.createStatement()) {
                s.execute("shutdown");
            }
        }
    }

    private void catalogDown() throws Exception {
        proxy.down();
    }

    private void catalogUp() throws Exception {
        proxy.up();
    }

    /** Outage length of the workload test. */
    protected long outageMillis() {
        return 3_000;
    }

    @BeforeEach
    void databases() throws Exception {
        dbs = ShardDatabases.create(DatabaseKind.H2, 2);
        startCatalogDatabase();
    }

    @AfterEach
    void drop() throws Exception {
        try {
            dropCatalogDatabase();
        } finally {
            dbs.close();
        }
    }

    private ShardedSessionFactory boot() {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Fixtures.MODEL)
                .virtualShards(16).schemaAction("create")
                .policy(User.class, Policies.roundRobin().withKeyGeneration(KeyGeneration.SEQUENCE).withCombine(Combine.ALL))
                .property(ShardingSettings.SEQUENCE_BLOCK_SIZE, "3")
                .property(ShardingSettings.CATALOG_CONNECTION_TIMEOUT, String.valueOf(CONNECTION_TIMEOUT));
        dbs.settings().forEach(builder::property);
        return builder.catalog(catalogUrl(), catalogUser(), catalogPassword()).build();
    }

    @Test
    void knownKeysKeepRoutingWhileWhatNeedsTheCatalogFailsNamingItAndWorksAgainWhenItIsBack() throws Exception {
        try (ShardedSessionFactory shards = boot()) {
            List<Long> known = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                User user = new User(null, "before" + i);
                shards.persist(user);
                known.add(user.getId());
            }
            CachedShardDirectory directory = (CachedShardDirectory) shards.directory();

            catalogDown();

            for (Long id : known) {
                shards.inUnit(User.class, id, session -> session.find(User.class, id).setEmail("during" + id));
                assertThat(shards.find(User.class, id).getEmail()).isEqualTo("during" + id);
            }
            assertThat(shards.askShards(User.class, session -> session
                    .createQuery("select count(u) from User u", Long.class).getSingleResult()))
                    .containsExactlyInAnyOrder(2L, 2L);
            // blocks of 3: ids 4 and 5 are still in memory but their placements need the catalog; then a new block
            assertUnavailableFast(() -> shards.persist(new User(null, "needs a placement")));
            assertUnavailableFast(() -> shards.persist(new User(null, "needs a placement too")));
            assertUnavailableFast(() -> shards.persist(new User(null, "needs a new block")));
            assertUnavailableFast(directory::refresh);
            assertThat(shards.directory().version()).isEqualTo(1);

            catalogUp();

            // the catalog's pool reconnects by itself; its first new connection may wait out the pool's back-off
            User after = new User(null, "after");
            long start = System.nanoTime();
            while (true) {
                try {
                    shards.persist(after);
                    break;
                } catch (CatalogUnavailableException stillReconnecting) {
                    assertThat((System.nanoTime() - start) / 1_000_000).as("recovery").isLessThan(15_000L);
                    sleep(100);
                }
            }
            System.out.println("[catalog-outage] " + getClass().getSimpleName() + " first new unit "
                    + (System.nanoTime() - start) / 1_000_000 + " ms after the catalog came back");
            assertThat(shards.find(User.class, after.getId()).getEmail()).isEqualTo("after");
            assertThat(directory.refresh()).isEqualTo(1);
            assertNothingWrittenTwice(shards, 5);
        }
    }

    @Test
    void anUnreachableCatalogFailsTheBootWithinTheConnectionTimeoutNamingIt() throws Exception {
        catalogDown();
        try {
            assertThatThrownBy(this::boot)
                    .isInstanceOf(CatalogUnavailableException.class)
                    .hasMessageContaining("Cannot reach the shard catalog at " + catalogShownAs())
                    .hasMessageContaining("within " + CONNECTION_TIMEOUT + " ms")
                    .hasMessageContaining("atomicshards.catalog.url")
                    .hasMessageNotContaining("hunter2secret");
            // the catalog part alone, without Hibernate's boot: bounded by the connection timeout (plus closing the pool)
            assertUnavailableFast(() -> new Catalog(catalogUrl(), catalogUser(), catalogPassword(), "outage-probe",
                    new CatalogOptions(CatalogSchemaAction.CREATE, CONNECTION_TIMEOUT, 1000)).close(),
                    "Cannot reach the shard catalog at " + catalogShownAs());
        } finally {
            catalogUp();
        }
    }

    private void assertUnavailableFast(Runnable needsTheCatalog) {
        assertUnavailableFast(needsTheCatalog, "the shard catalog at " + catalogShownAs());
    }

    private void assertUnavailableFast(Runnable needsTheCatalog, String naming) {
        long start = System.nanoTime();
        assertThatThrownBy(needsTheCatalog::run)
                .isInstanceOf(CatalogUnavailableException.class)
                .hasMessageContaining(naming)
                .hasMessageNotContaining("hunter2secret");
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(CONNECTION_TIMEOUT + 2_000);
    }

    @Test
    void aWorkloadRidesOutAnOutageAndWritesNothingTwice() throws Exception {
        try (ShardedSessionFactory shards = boot()) {
            List<Long> known = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                User user = new User(null, "known" + i);
                shards.persist(user);
                known.add(user.getId());
            }
            Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
            ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicBoolean down = new AtomicBoolean();
            ExecutorService workers = Executors.newFixedThreadPool(2);
            List<Future<?>> work = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int worker = w;
                work.add(workers.submit(() -> {
                    long n = 0;
                    while (running.get()) {
                        long id = known.get((int) (n++ % known.size()));
                        record(outcomes, unexpected, down, "known-key unit of work", () ->
                                shards.inUnit(User.class, id, session -> session.find(User.class, id).getEmail()));
                        record(outcomes, unexpected, down, "fan-out", () -> shards.askShards(User.class,
                                session -> session.createQuery("select count(u) from User u", Long.class)
                                        .getSingleResult()));
                        record(outcomes, unexpected, down, "new unit", () ->
                                shards.persist(new User(null, "w" + worker)));
                        sleep(20);
                    }
                }));
            }
            awaitCount(outcomes, "up new unit ok", 20); // warmed up (Hibernate compiles the queries on first use)
            catalogDown();
            down.set(true); // set after the catalog went down and cleared before it comes back: "down" is certain
            sleep(outageMillis());
            down.set(false);
            catalogUp();
            long before = count(outcomes, "up new unit ok");
            awaitCount(outcomes, "up new unit ok", before + 10); // new units are placed again
            running.set(false);
            for (Future<?> f : work) {
                f.get(30, TimeUnit.SECONDS);
            }
            workers.shutdown();

            System.out.println("[catalog-outage] " + getClass().getSimpleName() + " outage " + outageMillis() + " ms: "
                    + new TreeMap<>(outcomes));
            assertThat(unexpected).isEmpty();
            assertThat(outcomes.keySet()).noneMatch(k -> k.contains("known-key unit of work failed"))
                    .noneMatch(k -> k.contains("fan-out failed"))
                    .doesNotContain("down new unit ok")
                    .contains("down new unit failed (CatalogUnavailableException)", "down known-key unit of work ok");
            assertNothingWrittenTwice(shards, -1);
        }
    }

    /** Counts the outcome of {@code action} under "down", "up" or "both" (the outage began or ended meanwhile). */
    private static void record(Map<String, AtomicLong> outcomes, ConcurrentLinkedQueue<Throwable> unexpected,
                               AtomicBoolean down, String what, Runnable action) {
        boolean downBefore = down.get();
        String outcome;
        try {
            action.run();
            outcome = " ok";
        } catch (CatalogUnavailableException e) {
            outcome = " failed (CatalogUnavailableException)";
        } catch (RuntimeException e) {
            outcome = " failed";
            unexpected.add(e);
        }
        boolean downAfter = down.get();
        String phase = downBefore != downAfter ? "both " : downBefore ? "down " : "up ";
        outcomes.computeIfAbsent(phase + what + outcome, k -> new AtomicLong()).incrementAndGet();
    }

    private static long count(Map<String, AtomicLong> outcomes, String key) {
        AtomicLong n = outcomes.get(key);
        return n == null ? 0 : n.get();
    }

    private static void awaitCount(Map<String, AtomicLong> outcomes, String key, long atLeast) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (count(outcomes, key) < atLeast) {
            assertThat(System.nanoTime()).as("'%s' reached %d within 60 s", key, atLeast).isLessThan(deadline);
            sleep(50);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Every user row lives on exactly one shard, on the shard its placement names; no id was handed out twice; and
     * (if {@code expectedUsers} is not negative) exactly that many users exist.
     */
    private void assertNothingWrittenTwice(ShardedSessionFactory shards, int expectedUsers) throws SQLException {
        Set<Long> seen = new HashSet<>();
        long rows = 0;
        for (String shard : List.of("s0", "s1")) {
            try (Connection c = dbs.connect(shard); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select id from app_user")) {
                while (rs.next()) {
                    long id = rs.getLong(1);
                    rows++;
                    assertThat(seen.add(id)).as("user %d stored twice", id).isTrue();
                    assertThat(shards.shardFor(User.class, id)).as("placement of user %d", id).contains(ShardId.of(shard));
                }
            }
        }
        if (expectedUsers >= 0) {
            assertThat(rows).isEqualTo(expectedUsers);
        }
    }
}
