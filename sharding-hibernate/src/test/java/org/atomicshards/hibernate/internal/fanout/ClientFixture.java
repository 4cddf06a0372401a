package org.atomicshards.hibernate.internal.fanout;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;

/**
 * A sharded factory (four shards) and a reference factory (one database) over fresh databases of one kind, both
 * holding the same {@link Client}s, {@link ClientOrder}s and {@link Product}s. Queries on the reference's only
 * database are what the merged fan-out results must equal.
 */
final class ClientFixture implements AutoCloseable {

    static final int SHARDS = 4;

    private final ShardDatabases shardDatabases;
    private final ShardDatabases referenceDatabases;
    final ShardedSessionFactory sharded;
    final ShardedSessionFactory reference;

    private ClientFixture(DatabaseKind kind, int clients) {
        ShardDatabases shardsCreated = null;
        ShardDatabases referenceCreated = null;
        ShardedSessionFactory shardedBuilt = null;
        ShardedSessionFactory referenceBuilt = null;
        try {
            shardsCreated = ShardDatabases.create(kind, SHARDS);
            referenceCreated = ShardDatabases.create(kind, 1);
            shardedBuilt = build(shardsCreated);
            referenceBuilt = build(referenceCreated);
            fill(shardedBuilt, clients);
            fill(referenceBuilt, clients);
        }
        catch (RuntimeException e) {
            for (AutoCloseable closeable : new AutoCloseable[] {shardedBuilt, referenceBuilt, shardsCreated,
                    referenceCreated}) {
                closeQuietly(closeable, e);
            }
            throw e;
        }
        this.shardDatabases = shardsCreated;
        this.referenceDatabases = referenceCreated;
        this.sharded = shardedBuilt;
        this.reference = referenceBuilt;
    }

    private static ClientFixture sharedH2;

    /** The H2 fixture shared by the tests of this package that only read (built once per JVM, 200 clients). */
    static synchronized ClientFixture h2() {
        if (sharedH2 == null) {
            sharedH2 = create(DatabaseKind.H2, 200);
        }
        return sharedH2;
    }

    /** Creates the databases and writes {@code clients} clients (with three orders each on average). */
    static ClientFixture create(DatabaseKind kind, int clients) {
        return new ClientFixture(kind, clients);
    }

    private static ShardedSessionFactory build(ShardDatabases databases) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(Client.class, ClientOrder.class, Product.class)
                .virtualShards(16)
                .policy(Client.class, Policies.hash())
                .schemaAction("create");
        databases.settings().forEach(builder::property);
        return builder.build();
    }

    /** Writes the same pseudo-random rows (fixed seed) through the factory, one transaction per shard. */
    private static void fill(ShardedSessionFactory factory, int clients) {
        List<Product> products = new ArrayList<>();
        for (long id = 1; id <= 7; id++) {
            products.add(new Product(id, "SKU-" + (100 - id), (int) (id * 3 % 5)));
        }
        factory.replicate(session -> products.forEach(session::persist));
        Random random = new Random(20_261_125L);
        // The attributes added later draw from a generator of their own, so that the others keep their values.
        Random added = new Random(20_261_207L);
        Map<ShardId, List<java.util.function.Consumer<Session>>> rows = new LinkedHashMap<>();
        long orderId = 10_000;
        for (long id = 1; id <= clients; id++) {
            Client client = new Client(id, random.nextInt(10), (short) random.nextInt(300),
                    random.nextInt(1_000_000) * 1_000L, random.nextInt(7) == 0 ? null
                    : BigDecimal.valueOf(random.nextInt(2_000_000) - 500_000, 2),
                    // Eighths add exactly in binary: a sum of doubles then does not depend on the order of addition.
                    random.nextInt(100_000) / 8.0, random.nextInt(6) == 0 ? null
                    : LocalDateTime.of(2026, 1, 1, 0, 0).plusMinutes(random.nextInt(500_000)),
                    BigInteger.valueOf(added.nextLong(1_000_000_000_000_000L)),
                    // Quarters below 64: a float holds their sums exactly, whatever the order of addition.
                    added.nextInt(256) / 4.0f);
            List<java.util.function.Consumer<Session>> unit = rows.computeIfAbsent(
                    factory.shardFor(Client.class, id).orElseThrow(), shard -> new ArrayList<>());
            unit.add(session -> session.persist(client));
            int orders = random.nextInt(7);
            for (int i = 0; i < orders; i++) {
                Long product = random.nextInt(5) == 0 ? null : 1L + random.nextInt(products.size());
                long order = orderId++;
                int amount = random.nextInt(50);
                Delivery delivery = random.nextInt(4) == 0 ? null
                        : new Delivery(random.nextInt(3), random.nextInt(24));
                // The product is reference data: its row is on every shard, the order refers to it by id.
                unit.add(session -> session.persist(new ClientOrder(order, client,
                        product == null ? null : session.getReference(Product.class, product), amount, delivery)));
            }
        }
        rows.forEach((shard, writes) -> {
            try (Session session = factory.openSession(shard)) {
                session.getTransaction().begin();
                writes.forEach(write -> write.accept(session));
                session.getTransaction().commit();
            }
        });
    }

    /** Runs work in a session on the reference's only database. */
    <T> T onReference(Function<Session, T> work) {
        try (Session session = reference.openSession(reference.shards().get(0))) {
            return work.apply(session);
        }
    }

    @Override
    public void close() {
        RuntimeException failure = null;
        for (AutoCloseable closeable : new AutoCloseable[] {sharded, reference, shardDatabases,
                referenceDatabases}) {
            try {
                closeable.close();
            }
            catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("Cannot close the client fixture", e);
                }
                else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static void closeQuietly(AutoCloseable closeable, RuntimeException failure) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        }
        catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
