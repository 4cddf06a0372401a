package org.atomicshards.hibernate.legacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
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
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.admin.AdoptionRefusedException;
import org.atomicshards.hibernate.admin.AdoptionReport;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.ShardTopologyException;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Adopting in place the database of an application written for one database (IDENTITY ids, a member two foreign keys
 * from its root, a reference table): checks that refuse a database not ready (nothing changed), the adoption itself
 * (nothing copied, the fence created, every virtual shard owned), ids after it and after splits to four shards made
 * while a writer writes (none collides with a stored one), every row once on the shard the map names.
 */
abstract class AdoptionContract {

    static final ShardId S0 = ShardId.of("s0");
    static final int VIRTUAL_SHARDS = 64;
    static final Class<?>[] MODEL = {Customer.class, PurchaseOrder.class, OrderLine.class, Currency.class};
    static final List<String> TABLES = List.of("customer", "purchase_order", "order_line");

    private final List<ShardDatabases> databases = new ArrayList<>();
    private final List<ShardedSessionFactory> factories = new ArrayList<>();

    protected abstract DatabaseKind kind();

    @AfterEach
    void closeAll() {
        factories.forEach(ShardedSessionFactory::close);
        databases.forEach(ShardDatabases::close);
    }

    ShardDatabases databases(int count) {
        ShardDatabases dbs = ShardDatabases.create(kind(), count);
        databases.add(dbs);
        return dbs;
    }

    /** A factory with the first {@code listed} databases of {@code dbs} as its shards; the others can be added. */
    ShardedSessionFactory boot(ShardDatabases dbs, int listed, Map<String, Object> extra) {
        return boot(dbs, listed, extra, MODEL);
    }

    ShardedSessionFactory boot(ShardDatabases dbs, int listed, Map<String, Object> extra, Class<?>... model) {
        List<ShardDatabase> first = dbs.shards().subList(0, listed);
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(model)
                .virtualShards(VIRTUAL_SHARDS).connectionTimeoutMillis(10_000).schemaAction("none");
        dbs.settings().forEach((key, value) -> {
            boolean unlisted = key.startsWith(ShardingSettings.SHARD_PREFIX) && first.stream()
                    .noneMatch(shard -> key.startsWith(ShardingSettings.SHARD_PREFIX + shard.id() + "."));
            if (!key.equals(ShardingSettings.SHARDS) && !(unlisted && key.endsWith(".url"))) {
                builder.property(key, value);
            }
        });
        builder.property(ShardingSettings.SHARDS, String.join(",", first.stream().map(ShardDatabase::id).toList()));
        builder.property(ShardingSettings.RESHARDING_AUTO_RESUME, "false");
        extra.forEach(builder::property);
        ShardedSessionFactory factory = builder.catalog(dbs.newCatalogUrl()).build();
        factories.add(factory);
        return factory;
    }

    /** The one-database application's database on s0 of new databases, migrated for sharding, with rows. */
    LegacyDatabase migratedLegacy(ShardDatabases dbs, int customers) throws SQLException {
        LegacyDatabase legacy = new LegacyDatabase(dbs, "s0");
        legacy.createSchema();
        legacy.seed(customers);
        legacy.addKeyColumn();
        legacy.fillKeyColumn();
        return legacy;
    }

    @Test
    void aDryRunChecksAndChangesNothing() throws SQLException {
        ShardDatabases dbs = databases(1);
        LegacyDatabase legacy = migratedLegacy(dbs, 5);
        ShardedSessionFactory shards = boot(dbs, 1, Map.of());

        AdoptionReport report = shards.admin().adopt(S0, true);

        assertThat(report.adoptable()).isTrue();
        assertThat(report.applied()).isFalse();
        assertThat(report.virtualShards()).isEqualTo(VIRTUAL_SHARDS);
        assertThat(report.checkedKeyColumns())
                .containsExactlyInAnyOrder("customer.id", "purchase_order.customer_id", "order_line.customer_id");
        assertThat(report.largestIds()).containsEntry(Customer.class.getName(), legacy.maxId("customer"))
                .containsEntry(OrderLine.class.getName(), legacy.maxId("order_line"));
        assertThat(report.nextIds()).containsEntry(PurchaseOrder.class.getName(), legacy.maxId("purchase_order") + 1);
        assertThat(tableExists(dbs, "s0", "as_ownership")).as("fence tables after a dry run").isFalse();
    }

    @Test
    void refusesRowsWithoutKeyAndChangesNothing() throws SQLException {
        ShardDatabases dbs = databases(1);
        LegacyDatabase legacy = new LegacyDatabase(dbs, "s0");
        legacy.createSchema();
        legacy.seed(3);
        legacy.addKeyColumn();
        legacy.fillKeyColumn();
        try (Connection connection = dbs.connect("s0"); Statement statement = connection.createStatement()) {
            statement.execute(kind() == DatabaseKind.MARIADB ? "alter table order_line modify customer_id bigint null"
                    : "alter table order_line alter column customer_id drop not null");
        }
        legacy.insertLineWithoutKey();
        ShardedSessionFactory shards = boot(dbs, 1, Map.of());

        AdoptionReport dryRun = shards.admin().adopt(S0, true);
        assertThat(dryRun.adoptable()).isFalse();
        assertThat(dryRun.problems()).singleElement().asString()
                .contains("table order_line", "key column customer_id is null", "fill the key column in every row");

        assertThatThrownBy(() -> shards.admin().adopt(S0, false))
                .isInstanceOf(AdoptionRefusedException.class)
                .hasMessageContaining("shard 's0'").hasMessageContaining("order_line")
                .hasMessageContaining("Nothing was changed");
        assertThat(tableExists(dbs, "s0", "as_ownership")).as("fence tables after a refusal").isFalse();
    }

    @Test
    void refusesADatabaseWithoutTheKeyColumn() throws SQLException {
        ShardDatabases dbs = databases(1);
        LegacyDatabase legacy = new LegacyDatabase(dbs, "s0");
        legacy.createSchema();
        legacy.seed(2);
        ShardedSessionFactory shards = boot(dbs, 1, Map.of());

        AdoptionReport report = shards.admin().adopt(S0, true);

        assertThat(report.problems()).singleElement().asString()
                .contains("order_line.customer_id", "apply the migration that adds the key column to order_line");
    }

    @Test
    void refusesAPolicyThatRecordsPlacements() throws SQLException {
        ShardDatabases dbs = databases(1);
        migratedLegacy(dbs, 2);
        ShardedSessionFactory shards = boot(dbs, 1, Map.of("atomicshards.unit.Customer.policy", "lookup"));

        assertThatThrownBy(() -> shards.admin().adopt(S0, false))
                .isInstanceOf(AdoptionRefusedException.class)
                .hasMessageContaining("unit Customer uses the policy 'lookup'")
                .hasMessageContaining("hash, modulo, range, consistent_hash or snowflake");
    }

    @Test
    void refusesStoredIdsThatSnowflakeIdsCouldReach() throws SQLException {
        ShardDatabases dbs = databases(1);
        try (Connection connection = dbs.connect("s0"); Statement statement = connection.createStatement()) {
            statement.execute("create table ticket (id bigint primary key, subject varchar(100))");
            statement.execute("insert into ticket (id, subject) values (10, 'small'), (4611686018427387904, 'huge')");
        }
        ShardedSessionFactory shards = boot(dbs, 1, Map.of(), Ticket.class);

        AdoptionReport report = shards.admin().adopt(S0, true);

        assertThat(report.largestIds()).containsEntry(Ticket.class.getName(), 4611686018427387904L);
        assertThat(report.nextIds()).doesNotContainKey(Ticket.class.getName());
        assertThat(report.problems()).singleElement().asString()
                .contains("stores ids up to 4611686018427387904", "use @SequenceBlockId for it");
        assertThatThrownBy(() -> shards.admin().adopt(S0, false)).isInstanceOf(AdoptionRefusedException.class);
        assertThat(tableExists(dbs, "s0", "as_ownership")).isFalse();
    }

    @Test
    void snowflakeIdsAboveSmallStoredIdsAreAdopted() throws SQLException {
        ShardDatabases dbs = databases(1);
        try (Connection connection = dbs.connect("s0"); Statement statement = connection.createStatement()) {
            statement.execute("create table ticket (id bigint primary key, subject varchar(100))");
            statement.execute("insert into ticket (id, subject) values (1, 'first'), (2, 'second')");
        }
        ShardedSessionFactory shards = boot(dbs, 1, Map.of(), Ticket.class);

        AdoptionReport report = shards.admin().adopt(S0, false);
        Ticket ticket = new Ticket("after");
        shards.persist(ticket);

        assertThat(report.applied()).isTrue();
        assertThat(report.largestIds()).containsEntry(Ticket.class.getName(), 2L);
        assertThat(ticket.getId()).isGreaterThan(2L);
    }

    @Test
    void refusesAShardThatDoesNotOwnEveryVirtualShard() throws SQLException {
        ShardDatabases dbs = databases(2);
        migratedLegacy(dbs, 2);
        ShardedSessionFactory shards = boot(dbs, 2, Map.of());

        assertThatThrownBy(() -> shards.admin().adopt(S0, true))
                .isInstanceOf(ShardTopologyException.class)
                .hasMessageContaining("owns 32 of the 64 virtual shards")
                .hasMessageContaining("configure atomicshards.shards with that database alone");
    }

    @Test
    void adoptingAgainRaisesTheIdsAboveRowsWrittenMeanwhile() throws SQLException {
        ShardDatabases dbs = databases(1);
        LegacyDatabase legacy = migratedLegacy(dbs, 3);
        ShardedSessionFactory shards = boot(dbs, 1, Map.of());
        AdoptionReport first = shards.admin().adopt(S0, false);
        long late = legacy.maxId("customer") + 5_000;
        legacy.insertCustomer(late); // the old application, still running after the first adoption

        AdoptionReport second = shards.admin().adopt(S0, false);

        assertThat(first.applied()).isTrue();
        assertThat(second.nextIds()).containsEntry(Customer.class.getName(), late + 1);
        Customer customer = new Customer("after");
        shards.persist(customer);
        assertThat(customer.getId()).isGreaterThan(late);
    }

    @Test
    void adoptsInPlaceThenSplitsToFourShardsWhileAWriterWritesWithNoDuplicateId() throws Exception {
        ShardDatabases dbs = databases(4);
        LegacyDatabase legacy = migratedLegacy(dbs, 40);
        Map<String, Long> largestBefore = new HashMap<>();
        for (String table : TABLES) {
            largestBefore.put(table, legacy.maxId(table));
        }
        Map<String, Set<Long>> before = ids(dbs, "s0");
        ShardedSessionFactory shards = boot(dbs, 1, Map.of());

        AdoptionReport report = shards.admin().adopt(S0, false);

        assertThat(report.applied()).isTrue();
        assertThat(count(dbs, "s0", "select count(*) from as_ownership")).isEqualTo(VIRTUAL_SHARDS);
        assertThat(ids(dbs, "s0")).as("nothing moved or copied").isEqualTo(before);
        List<long[]> afterAdoption = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            afterAdoption.add(writeCustomerWithOrder(shards, "after adoption " + i));
        }
        assertThat(afterAdoption).allSatisfy(ids -> {
            assertThat(ids[0]).isGreaterThan(largestBefore.get("customer"));
            assertThat(ids[1]).isGreaterThan(largestBefore.get("purchase_order"));
            assertThat(ids[2]).isGreaterThan(largestBefore.get("order_line"));
        });

        ConcurrentLinkedQueue<long[]> acknowledged = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Future<?> writing = writer.submit(() -> {
            int n = 0;
            while (!stop.get()) {
                acknowledged.add(writeCustomerWithOrder(shards, "during split " + n++));
            }
            return null;
        });
        try {
            for (String id : List.of("s1", "s2", "s3")) {
                ShardDatabase db = dbs.shards().get(Integer.parseInt(id.substring(1)));
                shards.admin().addShard(id, db.url(), db.user(), db.password());
            }
            shards.admin().split(S0, ShardId.of("s1"), MoveOptions.defaults());
            shards.admin().split(S0, ShardId.of("s2"), MoveOptions.defaults());
            shards.admin().split(ShardId.of("s1"), ShardId.of("s3"), MoveOptions.defaults());
        } finally {
            stop.set(true);
            writing.get(60, TimeUnit.SECONDS);
            writer.shutdown();
        }
        List<long[]> afterSplit = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            afterSplit.add(writeCustomerWithOrder(shards, "after split " + i));
        }

        assertThat(acknowledged).as("writes during the splits").isNotEmpty();
        Map<String, List<Long>> all = new HashMap<>();
        for (ShardDatabase db : dbs.shards()) {
            assertThat(count(dbs, db.id(), "select count(*) from currency")).as("currencies on " + db.id())
                    .isEqualTo(3);
            ids(dbs, db.id()).forEach((table, ids) -> all.computeIfAbsent(table, t -> new ArrayList<>()).addAll(ids));
            for (long customer : ids(dbs, db.id()).get("customer")) {
                assertThat(shards.shardFor(Customer.class, customer)).as("the shard of customer " + customer)
                        .contains(ShardId.of(db.id()));
            }
            assertThat(count(dbs, db.id(), "select count(*) from order_line l join purchase_order o on o.id = "
                    + "l.order_id where o.customer_id <> l.customer_id")).as("lines of another customer's order")
                    .isZero();
        }
        for (String table : TABLES) {
            assertThat(all.get(table)).as("ids of " + table + " over all shards").doesNotHaveDuplicates()
                    .containsAll(before.get(table));
        }
        List<long[]> written = new ArrayList<>(afterAdoption);
        written.addAll(acknowledged);
        written.addAll(afterSplit);
        for (long[] ids : written) {
            assertThat(all.get("customer")).contains(ids[0]);
            assertThat(all.get("purchase_order")).contains(ids[1]);
            assertThat(all.get("order_line")).contains(ids[2]);
        }
        assertThat(all.get("customer")).hasSize(before.get("customer").size() + written.size());
        for (ShardId shard : shards.shards()) {
            assertThat(shards.directory().virtualShardsOf(shard)).as("virtual shards of " + shard).hasSize(16);
        }
    }

    /** A new customer with one order of one line, in two units of work, retried while its unit is switched. */
    static long[] writeCustomerWithOrder(ShardedSessionFactory shards, String name) {
        Customer customer = new Customer(name);
        retried(() -> shards.persist(customer));
        long key = customer.getId();
        long[] ids = new long[3];
        ids[0] = key;
        retried(() -> shards.inUnit(Customer.class, key, session -> {
            PurchaseOrder order = new PurchaseOrder(session.getReference(Customer.class, key), "order");
            session.persist(order);
            OrderLine line = new OrderLine(order, key, "line");
            session.persist(line);
            session.flush();
            ids[1] = order.getId();
            ids[2] = line.getId();
        }));
        return ids;
    }

    private static void retried(Runnable write) {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                return;
            } catch (ShardMovingException e) {
                if (attempt == 50) {
                    throw e;
                }
            }
        }
    }

    /** The ids of each table of the model on {@code shard}. */
    static Map<String, Set<Long>> ids(ShardDatabases dbs, String shard) throws SQLException {
        Map<String, Set<Long>> ids = new HashMap<>();
        try (Connection connection = dbs.connect(shard); Statement statement = connection.createStatement()) {
            for (String table : TABLES) {
                Set<Long> values = new TreeSet<>();
                try (ResultSet rs = statement.executeQuery("select id from " + table)) {
                    while (rs.next()) {
                        values.add(rs.getLong(1));
                    }
                }
                ids.put(table, values);
            }
        }
        return ids;
    }

    static long count(ShardDatabases dbs, String shard, String sql) throws SQLException {
        try (Connection connection = dbs.connect(shard); Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static boolean tableExists(ShardDatabases dbs, String shard, String table) throws SQLException {
        try (Connection connection = dbs.connect(shard);
             ResultSet rs = connection.getMetaData().getTables(connection.getCatalog(), null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                if (rs.getString("TABLE_NAME").equalsIgnoreCase(table)) {
                    return true;
                }
            }
            return false;
        }
    }
}
