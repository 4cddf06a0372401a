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
import org.junit.jupiter.api.Test;

/**
 * Indexes under concurrent writers on every shard: racing for one value of a unique index, exactly one unit wins;
 * writers changing indexed values at random while some die between their two writes (before their unit commits, or
 * after it and before they let go of the old value) and readers look values up never leave a row the index misses,
 * never let a look-up return a row without the value, and never let two units hold one unique value.
 */
abstract class ShardIndexRacesContract extends IndexFactoryContract {

    private static final int WRITERS = 6;

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

    /**
     * Writers change indexed values and readers look up values that do not change while every virtual shard of one
     * shard moves to another, in batches: no look-up misses a unit, no two units hold one unique value, and afterwards
     * every entry lives on the shard that owns its value's virtual shard and the index agrees with the rows.
     */
    @Test
    void writersAndReadersWhileVirtualShardsMoveKeepTheIndexTrue() throws Exception {
        List<Long> fixed = new ArrayList<>(keysOnEveryShard(1));
        fixed.addAll(keysOnEveryShard(300));
        List<Long> changing = new ArrayList<>(keysOnEveryShard(600));
        changing.addAll(keysOnEveryShard(900));
        for (long key : fixed) {
            shards.inUnit(Account.class, key, session -> session.persist(new Account(key, "fixed" + key + "@x",
                    "f" + key % 3, 0)));
        }
        for (long key : changing) {
            shards.inUnit(Account.class, key, session -> session.persist(new Account(key, null, "c0", 0)));
        }
        String[] emails = {"a@x", "b@x", "c@x", "d@x", "e@x", "f@x", "g@x", "h@x", null};
        String[] cities = {"c0", "c1", "c2", null};
        ShardId source = shards.shards().get(0);
        ShardId target = shards.shards().get(1);
        Set<Integer> moving = new TreeSet<>(shards.directory().virtualShardsOf(source));
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger committed = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger lookUps = new AtomicInteger();
        ConcurrentLinkedQueue<String> wrongReads = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                clients.add(pool.submit(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (running.get()) {
                        long key = changing.get(random.nextInt(changing.size()));
                        String email = emails[random.nextInt(emails.length)];
                        String city = cities[random.nextInt(cities.length)];
                        try {
                            shards.inUnit(Account.class, key, session -> {
                                Account account = session.find(Account.class, key);
                                account.setEmail(email);
                                account.setCity(city);
                            });
                            committed.incrementAndGet();
                        } catch (DuplicateIndexValueException | ShardMovingException taken) {
                            refused.incrementAndGet();
                        } catch (ShardIndexException late) {
                            // a claim waited for a switching virtual shard past the claim's reservation
                            if (!late.getMessage().contains("Nothing was committed")) {
                                throw late;
                            }
                            refused.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            clients.add(pool.submit(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (running.get()) {
                    long key = fixed.get(random.nextInt(fixed.size()));
                    List<Account> found = shards.indexes().find(Account.class, "email", "fixed" + key + "@x");
                    if (found.size() != 1 || found.get(0).getId() != key) {
                        wrongReads.add("fixed" + key + "@x found " + found);
                    }
                    for (Account account : shards.indexes().find(Account.class, "city", "f" + key % 3)) {
                        if (!("f" + key % 3).equals(account.getCity())) {
                            wrongReads.add(account + " returned for a city it does not hold");
                        }
                    }
                    lookUps.incrementAndGet();
                }
                return null;
            }));
            Thread.sleep(200);
            shards.admin().move(moving, target, org.atomicshards.hibernate.admin.MoveOptions.defaults()
                    .virtualShardsPerBatch(2));
            Thread.sleep(200);
            running.set(false);
            for (Future<?> client : clients) {
                client.get(60, TimeUnit.SECONDS);
            }
        } finally {
            running.set(false);
            pool.shutdownNow();
        }

        assertThat(wrongReads).as("look-ups during the move").isEmpty();
        assertThat(committed.get()).as("units committed").isPositive();
        assertThat(lookUps.get()).as("look-ups").isPositive();
        assertThat(shards.directory().virtualShardsOf(source)).as("moved away").isEmpty();
        for (String index : List.of(IndexFixtures.EMAIL, IndexFixtures.CITY)) {
            for (IndexFixtures.EntryRow entry : IndexFixtures.entries(dbs, index, index.equals(IndexFixtures.EMAIL))) {
                int virtualShard = org.atomicshards.hibernate.internal.index.IndexValues.virtualShard(entry.digest(),
                        IndexFixtures.VIRTUAL_SHARDS);
                assertThat(entry.shard()).as("the shard of an entry of virtual shard " + virtualShard)
                        .isEqualTo(shards.directory().shardOf(virtualShard).name());
            }
        }
        List<IndexFixtures.AccountRow> rows = IndexFixtures.accounts(dbs);
        List<String> held = rows.stream().map(IndexFixtures.AccountRow::email).filter(java.util.Objects::nonNull)
                .toList();
        assertThat(held).as("no two units hold one unique value").doesNotHaveDuplicates();
        for (IndexFixtures.AccountRow row : rows) {
            if (row.email() != null) {
                assertThat(shards.indexes().findUnique(Account.class, "email", row.email())).as(row.email()).get()
                        .extracting(Account::getId).isEqualTo(row.id());
            }
        }
        assertThat(shards.indexes().verify(Account.class, "email", false).isConsistent()).isTrue();
        assertThat(shards.indexes().verify(Account.class, "city", false).isConsistent()).isTrue();
        System.out.println("Index during a move on " + kind() + ": " + committed + " committed, " + refused
                + " refused, " + lookUps + " look-ups");
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
