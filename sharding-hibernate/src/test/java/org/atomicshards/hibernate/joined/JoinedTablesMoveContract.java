package org.atomicshards.hibernate.joined;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Units whose entities span several tables move whole: a root with a secondary table, and members of a joined
 * hierarchy (the key in the base table, each subclass's columns in its own table, one joined through a column of
 * another name), while a writer changes only the secondary and subclass tables; on every database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JoinedTablesMoveContract {

    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");
    private static final int SHOPS = 40;
    private static final List<String> TABLES = List.of("shop", "shop_profile", "item", "book", "film");

    protected abstract DatabaseKind kind();

    private ShardDatabases dbs;

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(kind(), 2);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    @Test
    void unitsSpanningSeveralTablesMoveWholeWhileTheirJoinedTablesChange() throws Exception {
        try (ShardedSessionFactory shards = builder(Shop.class, Item.class, Book.class, Film.class).build()) {
            Map<Long, String> mottos = new ConcurrentHashMap<>();
            Map<Long, Integer> pages = new ConcurrentHashMap<>();
            for (long shop = 1; shop <= SHOPS; shop++) {
                long id = shop;
                shards.inUnit(Shop.class, id, session -> {
                    session.persist(new Shop(id, "shop " + id, "motto " + id));
                    session.persist(new Book(id * 10, id, "book " + id, 100));
                    session.persist(new Film(id * 10 + 1, id, "film " + id, 90));
                });
                mottos.put(id, "motto " + id);
                pages.put(id, 100);
            }
            Map<String, Long> onSource = rowCounts(S0);
            long sourceShops = onSource.get("shop");
            assertThat(sourceShops).as("shops on the source").isBetween(5L, SHOPS - 5L);
            assertThat(onSource).containsEntry("shop_profile", sourceShops).containsEntry("item", 2 * sourceShops)
                    .containsEntry("book", sourceShops).containsEntry("film", sourceShops);

            AtomicBoolean moving = new AtomicBoolean(true);
            ExecutorService writer = Executors.newSingleThreadExecutor();
            Future<Integer> written = writer.submit(() -> {
                int n = 0;
                while (moving.get()) {
                    long id = 1 + n % SHOPS;
                    int round = n++;
                    try {
                        shards.inUnit(Shop.class, id, session -> {
                            session.find(Shop.class, id).setMotto("motto " + id + " #" + round);
                            session.find(Book.class, id * 10).setPages(100 + round);
                        });
                        mottos.put(id, "motto " + id + " #" + round);
                        pages.put(id, 100 + round);
                    } catch (ShardMovingException retryLater) {
                        // not acknowledged: not expected afterwards
                    }
                }
                return n;
            });
            try {
                shards.admin().merge(S0, S1, MoveOptions.defaults().virtualShardsPerBatch(4));
            } finally {
                moving.set(false);
            }
            assertThat(written.get(60, TimeUnit.SECONDS)).isPositive();
            writer.shutdown();

            assertThat(rowCounts(S0)).allSatisfy((table, rows) -> assertThat(rows).as(table).isZero());
            assertThat(rowCounts(S1)).containsEntry("shop", (long) SHOPS).containsEntry("shop_profile", (long) SHOPS)
                    .containsEntry("item", 2L * SHOPS).containsEntry("book", (long) SHOPS)
                    .containsEntry("film", (long) SHOPS);
            for (long shop = 1; shop <= SHOPS; shop++) {
                long id = shop;
                assertThat(shards.shardFor(Shop.class, id)).contains(S1);
                shards.inUnit(Shop.class, id, session -> {
                    assertThat(session.find(Shop.class, id).getMotto()).isEqualTo(mottos.get(id));
                    assertThat(session.find(Book.class, id * 10).getPages()).isEqualTo(pages.get(id));
                    assertThat(session.find(Film.class, id * 10 + 1).getMinutes()).isEqualTo(90);
                });
            }
        }
    }

    /** A member whose key column is in its secondary table cannot be found through its first table: refused. */
    @Test
    void aKeyColumnOutsideTheEntitysFirstTableIsRefusedBeforeAnythingIsRecorded() throws Exception {
        try (ShardedSessionFactory shards = builder(Shop.class, Kiosk.class).build()) {
            for (long shop = 1; shop <= 8; shop++) {
                long id = shop;
                shards.inUnit(Shop.class, id, session -> {
                    session.persist(new Shop(id, "shop " + id, "motto " + id));
                    session.persist(new Kiosk(id * 10, id));
                });
            }
            int version = shards.directory().version();

            assertThatThrownBy(() -> shards.admin().merge(S0, S1, MoveOptions.defaults()))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("member Kiosk cannot be copied")
                    .hasMessageContaining("kiosk_owner")
                    .hasMessageContaining("Nothing was moved");

            assertThat(shards.admin().operations()).isEmpty();
            assertThat(shards.directory().version()).isEqualTo(version);
            List<String> tables = List.of("shop", "shop_profile", "kiosk", "kiosk_owner");
            Map<String, Long> s0 = dbs.rowCounts(S0.name(), tables);
            Map<String, Long> s1 = dbs.rowCounts(S1.name(), tables);
            for (String table : tables) {
                assertThat(s0.get(table) + s1.get(table)).as(table).isEqualTo(8L);
            }
        }
    }

    /** A factory on the test's shards with a catalog of its own (each test starts from the shards' first map). */
    private ShardedSessionFactoryBuilder builder(Class<?>... entities) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(entities)
                .virtualShards(16)
                .connectionTimeoutMillis(10_000)
                .schemaAction("create");
        dbs.settings().forEach(builder::property);
        return builder.catalog(dbs.newCatalogUrl());
    }

    private Map<String, Long> rowCounts(ShardId shard) throws SQLException {
        return dbs.rowCounts(shard.name(), TABLES);
    }
}
