package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.atomicshards.hibernate.indexmodel.Account;
import org.atomicshards.hibernate.internal.index.IndexFaults;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Indexes under concurrent writers on every shard: racing for one value of a unique index, exactly one unit wins;
 * writers changing indexed values at random while some die between their two writes (before their unit commits, or
 * after it and before they let go of the old value) and readers look values up never leave a row the index misses,
 * never let a look-up return a row without the value, and never let two units hold one unique value.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ShardIndexRacesContract {

    private static final long CLAIM_TIMEOUT = 2_000;
    private static final int WRITERS = 6;

    protected abstract DatabaseKind kind();

    private ShardDatabases dbs;
    private ShardedSessionFactory shards;

    @BeforeAll
    void createDatabases() {
        dbs = ShardDatabases.create(kind(), 3);
    }

    @AfterAll
    void dropDatabases() {
        dbs.close();
    }

    @BeforeEach
    void build() {
        shards = IndexFixtures.builder(dbs, CLAIM_TIMEOUT).build();
    }

    @AfterEach
    void close() {
        IndexFaults.install(null);
        shards.close();
    }

    /** Two keys on each shard. */
    private List<Long> keysOnEveryShard(long from) {
        List<Long> keys = new ArrayList<>();
        for (ShardId shard : shards.shards()) {
            long first = IndexFixtures.keyOn(shards, shard, from);
            keys.add(first);
            keys.add(IndexFixtures.keyOn(shards, shard, first + 1));
        }
        return keys;
    }

    @Test
    void ofWritersOnEveryShardRacingForOneUniqueValueExactlyOneWins() throws Exception {
        List<Long> existing = keysOnEveryShard(1);
        for (long key : existing) {
            shards.inUnit(Account.class, key, session -> session.persist(new Account(key, null, null, 0)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(existing.size());
        try {
            for (int round = 0; round < 12; round++) {
                String value = "race" + round + "@example.com";
                boolean inserts = round % 2 == 1; // odd rounds: new units; even rounds: existing units change
                List<Long> racers = inserts ? keysOnEveryShard(1_000 + round * 100L) : existing;
                CyclicBarrier start = new CyclicBarrier(racers.size());
                List<Future<Boolean>> outcomes = new ArrayList<>();
                for (long key : racers) {
                    outcomes.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        try {
                            shards.inUnit(Account.class, key, session -> {
                                if (inserts) {
                                    session.persist(new Account(key, value, null, 0));
                                } else {
                                    session.find(Account.class, key).setEmail(value);
                                }
                            });
                            return true;
                        } catch (DuplicateIndexValueException lost) {
                            return false;
                        }
                    }));
                }
                List<Long> winners = new ArrayList<>();
                for (int i = 0; i < racers.size(); i++) {
                    if (outcomes.get(i).get(30, TimeUnit.SECONDS)) {
                        winners.add(racers.get(i));
                    }
                }

                assertThat(winners).as("round %d", round).hasSize(1);
                assertThat(IndexFixtures.accounts(dbs)).filteredOn(row -> value.equals(row.email()))
                        .extracting(IndexFixtures.AccountRow::id).containsExactly(winners.get(0));
                assertThat(shards.indexes().findUnique(Account.class, "email", value)).get()
                        .extracting(Account::getId).isEqualTo(winners.get(0));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void writersChangingValuesWhileSomeDieBetweenTheirWritesKeepTheIndexTrue() throws Exception {
        List<Long> keys = new ArrayList<>(keysOnEveryShard(1));
        keys.addAll(keysOnEveryShard(500));
        for (long key : keys) {
            shards.inUnit(Account.class, key, session -> session.persist(new Account(key, null, "c0", 0)));
        }
        String[] emails = {"a@x", "b@x", "c@x", "d@x", "e@x", "f@x", "g@x", "h@x", "i@x", "j@x", "k@x", "l@x",
                "m@x", "n@x", "o@x", "p@x", "q@x", "r@x", null};
        String[] cities = {"c0", "c1", "c2", null};
        ThreadLocal<String> crashAt = new ThreadLocal<>();
        IndexFaults.install(step -> {
            if (step.equals(crashAt.get())) {
                throw new IndexFaults.Crash(step);
            }
        });
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger committed = new AtomicInteger();
        AtomicInteger crashed = new AtomicInteger();
        AtomicInteger duplicates = new AtomicInteger();
        ConcurrentLinkedQueue<String> wrongReads = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                writers.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int op = 0; op < 60; op++) {
                        long key = keys.get(random.nextInt(keys.size()));
                        String email = emails[random.nextInt(emails.length)];
                        String city = cities[random.nextInt(cities.length)];
                        int fault = random.nextInt(10);
                        crashAt.set(fault == 0 ? "before-commit" : fault == 1 ? "after-commit" : null);
                        try {
                            shards.inUnit(Account.class, key, session -> {
                                Account account = session.find(Account.class, key);
                                if (random.nextBoolean()) {
                                    account.setEmail(email);
                                } else {
                                    account.setCity(city);
                                    account.setEmail(email);
                                }
                            });
                            committed.incrementAndGet();
                        } catch (DuplicateIndexValueException taken) {
                            duplicates.incrementAndGet();
                        } catch (RuntimeException e) {
                            if (!isCrash(e)) {
                                throw e;
                            }
                            crashed.incrementAndGet();
                        } finally {
                            crashAt.remove();
                        }
                    }
                    return null;
                }));
            }
            Future<?> reader = pool.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (writing.get()) {
                    String email = emails[random.nextInt(emails.length - 1)];
                    for (Account found : shards.indexes().find(Account.class, "email", email)) {
                        if (!email.equals(found.getEmail())) {
                            wrongReads.add(found + " returned for a value it does not hold");
                        }
                    }
                }
                return null;
            });
            for (Future<?> writer : writers) {
                writer.get(120, TimeUnit.SECONDS);
            }
            writing.set(false);
            reader.get(30, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        IndexFaults.install(null);

        assertThat(crashed.get()).as("crashes injected").isGreaterThan(2);
        assertThat(committed.get()).as("units committed").isPositive();
        assertThat(wrongReads).isEmpty();
        List<IndexFixtures.AccountRow> rows = IndexFixtures.accounts(dbs);
        List<String> held = rows.stream().map(IndexFixtures.AccountRow::email).filter(java.util.Objects::nonNull).toList();
        assertThat(held).as("no two units hold one unique value").doesNotHaveDuplicates();
        for (IndexFixtures.AccountRow row : rows) {
            if (row.email() != null) {
                assertThat(shards.indexes().findUnique(Account.class, "email", row.email())).as(row.email()).get()
                        .extracting(Account::getId).isEqualTo(row.id());
            }
        }
        Map<String, Set<Long>> byCity = new HashMap<>();
        rows.stream().filter(row -> row.city() != null)
                .forEach(row -> byCity.computeIfAbsent(row.city(), any -> new TreeSet<>()).add(row.id()));
        byCity.forEach((city, ids) -> {
            Set<Long> found = shards.indexes().find(Account.class, "city", city).stream().map(Account::getId)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(found).as(city).isEqualTo(ids);
        });
        assertThat(shards.indexes().verify(Account.class, "email", false)).satisfies(report -> {
            assertThat(report.missing()).isZero();
            assertThat(report.conflicts()).isZero();
        });
        assertThat(shards.indexes().verify(Account.class, "city", false).missing()).isZero();
        System.out.println("Index races on " + kind() + ": " + committed + " committed, " + crashed + " crashed, "
                + duplicates + " duplicates refused");
    }

    private static boolean isCrash(Throwable thrown) {
        for (Throwable current = thrown; current != null; current = current.getCause()) {
            if (current instanceof IndexFaults.Crash) {
                return true;
            }
        }
        return false;
    }
}
