package org.atomicshards.benchmarks.index;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.hibernate.ShardingSettings;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Finding a unit by an attribute that is not its key, over {@code shards} in-memory H2 databases of
 * {@value #MEMBERS_PER_SHARD} units each (hash policy, 1,024 virtual shards): through the attribute's unique index
 * ({@link #indexLookup}: the entry's shard, then the unit's), as a query the index prunes
 * ({@link #queryPrunedByIndex}: {@code where m.email = :email} through the fan-out engine), and the same query on a copy
 * of the attribute without index, which asks every shard ({@link #queryOnEveryShard}). And the cost the index adds to a
 * unit of work that changes the attribute ({@link #writeIndexedAttribute}) against one that changes the copy
 * ({@link #writeUnindexedAttribute}).
 *
 * <p>Latency, for one thread; {@link IndexThroughputBenchmark} runs the same as throughput, for several threads. Pools
 * of {@value #POOL_SIZE} connections a shard: a writer of an indexed attribute needs a second connection for
 * the index entry.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class IndexLookupBenchmark {

    public static final int MEMBERS_PER_SHARD = 100;
    static final int POOL_SIZE = 10;
    private static final AtomicInteger RUNS = new AtomicInteger();

    static final String BY_EMAIL = "select m from IndexedMember m where m.email = :email";
    static final String BY_PLAIN_EMAIL = "select m from IndexedMember m where m.plainEmail = :email";

    @Param({"4", "16", "64"})
    public int shards;

    private ShardedSessionFactory factory;
    private int members;

    /** Per benchmark thread: unique new values for the writes. */
    @State(Scope.Thread)
    public static class Writer {
        private final String prefix = UUID.randomUUID().toString().substring(0, 8);
        private long next;

        String newEmail() {
            return prefix + "-" + next++ + "@example.com";
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        Logger.getLogger("org.hibernate").setLevel(java.util.logging.Level.WARNING);
        String run = "ix" + RUNS.incrementAndGet() + "_" + UUID.randomUUID().toString().substring(0, 6);
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(IndexedMember.class)
                .catalog("jdbc:h2:mem:" + run + "_catalog;DB_CLOSE_DELAY=-1")
                .schemaAction("create-drop")
                .property(ShardingSettings.POOL_SIZE, POOL_SIZE)
                .property(ShardingSettings.POOL_MAX_TOTAL, POOL_SIZE * shards);
        for (int i = 0; i < shards; i++) {
            builder.shard("s" + i, "jdbc:h2:mem:" + run + "_s" + i + ";DB_CLOSE_DELAY=-1", "sa", "");
        }
        factory = builder.build();
        members = shards * MEMBERS_PER_SHARD;
        for (long id = 0; id < members; id++) {
            factory.persist(new IndexedMember(key(id), email(id)));
        }
        long id = members / 2;
        if (!indexLookup(id).getId().equals(key(id)) || !queryPrunedByIndex(id).getId().equals(key(id))
                || !queryOnEveryShard(id).getId().equals(key(id))) {
            throw new IllegalStateException("A look-up did not find member " + id);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (factory != null) {
            factory.close();
        }
    }

    static String key(long id) {
        return "k" + id;
    }

    static String email(long id) {
        return "member" + id + "@example.com";
    }

    private long randomMember() {
        return ThreadLocalRandom.current().nextInt(members);
    }

    private IndexedMember indexLookup(long id) {
        return factory.indexes().findUnique(IndexedMember.class, "email", email(id)).orElseThrow();
    }

    private IndexedMember queryPrunedByIndex(long id) {
        return factory.fanOut().createQuery(BY_EMAIL, IndexedMember.class).setParameter("email", email(id))
                .getSingleResult();
    }

    private IndexedMember queryOnEveryShard(long id) {
        return factory.fanOut().createQuery(BY_PLAIN_EMAIL, IndexedMember.class).setParameter("email", email(id))
                .getSingleResult();
    }

    @Benchmark
    public IndexedMember indexLookup() {
        return indexLookup(randomMember());
    }

    @Benchmark
    public IndexedMember queryPrunedByIndex() {
        return queryPrunedByIndex(randomMember());
    }

    @Benchmark
    public IndexedMember queryOnEveryShard() {
        return queryOnEveryShard(randomMember());
    }

    /** A unit of work that gives a member a new e-mail address: the index's claim, the row, the old entry's delete. */
    @Benchmark
    public void writeIndexedAttribute(Writer writer) {
        String id = key(randomMember());
        String email = writer.newEmail();
        factory.inUnit(IndexedMember.class, id, session -> session.find(IndexedMember.class, id).setEmail(email));
    }

    /** The same unit of work on the attribute's copy without index. */
    @Benchmark
    public void writeUnindexedAttribute(Writer writer) {
        String id = key(randomMember());
        String email = writer.newEmail();
        factory.inUnit(IndexedMember.class, id, session -> session.find(IndexedMember.class, id).setPlainEmail(email));
    }
}
