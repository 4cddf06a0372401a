package org.atomicshards.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.WrongShardException;
import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.spring.testapp.Account;
import org.atomicshards.spring.testapp.AccountRepository;
import org.atomicshards.spring.testapp.Ledger;
import org.atomicshards.spring.testapp.TestApplication;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The adversarial suite's Spring case (issue 53, item 8): Spring Data {@code @Modifying} updates, in a
 * {@code @ShardKeyParam} service and in {@link ShardScopes} scopes (one account, or several of one virtual shard in one
 * statement), while virtual shards move back and forth between two shards and movers are killed and resumed. Each
 * account has one writer; a write gives it a new version from one clock (its owner {@code "v<n>"}) and counts once its
 * transaction returned having changed every row it named. Readers through the same scopes must see at least the
 * version acknowledged before they began, one a write started, never nothing; at the end every account is, over
 * plain JDBC, once on the shard the map names, with its last acknowledged version. The seed is printed;
 * {@code -Datomicshards.adversarial.seed} fixes it.
 */
class AdversarialModifyingMoveTest {

    private static final int ACCOUNTS = 160;
    private static final int VIRTUAL_SHARDS = 16;

    private final long seed = Long.getLong("atomicshards.adversarial.seed", new SecureRandom().nextLong());
    private ConfigurableApplicationContext context;
    private final Map<String, String> urls = new HashMap<>();

    @BeforeEach
    void start() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        urls.put("a", "jdbc:h2:mem:adv_a_" + run + ";DB_CLOSE_DELAY=-1");
        urls.put("b", "jdbc:h2:mem:adv_b_" + run + ";DB_CLOSE_DELAY=-1");
        context = new SpringApplicationBuilder(TestApplication.class).run("--spring.main.banner-mode=off",
                "--atomicshards.shards[0].id=a", "--atomicshards.shards[0].url=" + urls.get("a"),
                "--atomicshards.shards[1].id=b", "--atomicshards.shards[1].url=" + urls.get("b"),
                "--atomicshards.catalog.url=jdbc:h2:mem:adv_catalog_" + run + ";DB_CLOSE_DELAY=-1",
                "--atomicshards.catalog.refresh-interval=500ms",
                // the test resumes the runs it kills itself; no instance may carry them on in the background
                "--atomicshards.properties[atomicshards.resharding.auto_resume]=false",
                "--atomicshards.virtual-shards=" + VIRTUAL_SHARDS, "--atomicshards.schema-action=create-drop");
    }

    @AfterEach
    void stop() {
        MoveFaults.install(null);
        context.close();
    }

    /** One account's versions: those started, the last acknowledged, those of unknown outcome. */
    private static final class Versions {
        final long key;
        final int virtualShard;
        final Set<Long> started = ConcurrentHashMap.newKeySet();
        final Set<Long> unknown = ConcurrentHashMap.newKeySet();
        volatile long acknowledged;

        Versions(long key, int virtualShard) {
            this.key = key;
            this.virtualShard = virtualShard;
            started.add(0L);
        }

        @Override
        public String toString() {
            return "account " + key + " (acknowledged v" + acknowledged + ")";
        }
    }

    private final AtomicLong clock = new AtomicLong();
    private final Map<Long, Versions> ledger = new HashMap<>();
    private final List<String> wrong = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicBoolean moving = new AtomicBoolean();
    private final AtomicLong acknowledgedWhileMoving = new AtomicLong();
    private final AtomicLong acknowledgedInScopes = new AtomicLong();
    private final AtomicLong readsWhileMoving = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong missed = new AtomicLong();

    @Test
    void modifyingUpdatesInShardKeyScopesLoseNothingWhileVirtualShardsMove() throws Exception {
        System.out.println("ADVERSARIAL Spring seed " + seed);
        ShardedSessionFactory shards = context.getBean(ShardedSessionFactory.class);
        AccountRepository accounts = context.getBean(AccountRepository.class);
        for (long key = 1; key <= ACCOUNTS; key++) {
            accounts.save(new Account(key, "v0"));
            ledger.put(key, new Versions(key,
                    ((ShardRouterImpl) shards.router()).unitOf(Account.class).placement().virtualShardOf(key)));
        }
        List<Thread> clients = List.of(new Thread(() -> write(0), "service-writer"),
                new Thread(() -> write(1), "scope-writer"), new Thread(this::read, "reader"));
        clients.forEach(Thread::start);
        Random random = new Random(seed);
        List<String> nemesis = new ArrayList<>();
        try {
            Thread.sleep(300);
            for (int round = 0; round < 8; round++) {
                ((CachedShardDirectory) shards.directory()).refresh();
                ShardId source = ShardId.of(round % 2 == 0 ? "a" : "b");
                ShardId target = ShardId.of(round % 2 == 0 ? "b" : "a");
                List<Integer> owned = new ArrayList<>(shards.directory().virtualShardsOf(source));
                Collections.shuffle(owned, random);
                Set<Integer> buckets = new TreeSet<>(owned.subList(0, Math.min(owned.size() - 1, 1 + random.nextInt(3))));
                // every other round the mover is killed at a step drawn from the seed, and resumed
                String killAt = round % 2 == 1 ? List.of("mid-copy", "after-verify", "after-switch", "after-promote")
                        .get(random.nextInt(4)) : null;
                Thread mover = Thread.currentThread();
                AtomicBoolean fired = new AtomicBoolean();
                MoveFaults.install(step -> {
                    if (step.equals(killAt) && Thread.currentThread() == mover && fired.compareAndSet(false, true)) {
                        throw new IllegalStateException("injected crash at " + step);
                    }
                });
                moving.set(true);
                try {
                    shards.admin().move(buckets, target, MoveOptions.defaults().virtualShardsPerBatch(1)
                            .unitsPerChunk(5));
                    assertThat(killAt).as("a move that was to be killed").isNull();
                } catch (MoveFailedException e) {
                    assertThat(e).hasMessageContaining("injected crash at " + killAt);
                    MoveFaults.install(null);
                    assertThat(shards.admin().resume()).hasSize(1);
                } finally {
                    MoveFaults.install(null);
                    moving.set(false);
                }
                nemesis.add(buckets + " " + source + " -> " + target + (killAt == null ? "" : ", killed at " + killAt));
                Thread.sleep(100);
            }
        } finally {
            stop.set(true);
            for (Thread client : clients) {
                client.join(60_000);
            }
        }
        String run = "seed " + seed + ", moves " + nemesis + ": " + acknowledgedWhileMoving + " writes acknowledged "
                + "while moving (" + acknowledgedInScopes + " in ShardScopes), " + readsWhileMoving + " reads while "
                + "moving, " + refused + " refused and run again, " + missed + " bulk updates that matched no row";
        System.out.println("ADVERSARIAL Spring " + run);
        assertThat(clients).noneMatch(Thread::isAlive);
        assertThat(wrong).as(run).isEmpty();
        assertThat(failures).as(run).isEmpty();
        assertThat(acknowledgedWhileMoving.get()).as(run).isGreaterThan(20);
        assertThat(acknowledgedInScopes.get()).as(run).isGreaterThan(5);
        assertThat(readsWhileMoving.get()).as(run).isGreaterThan(20);
        assertThat(audit(shards)).as(run).isEmpty();
        assertThat(shards.admin().operations()).isEmpty();
    }

    /**
     * A scope resolved the shard holding a unit; the unit moves before the scope's first read of it. The read is
     * refused as retryable (its unit moved), not as a cross-shard access, and the retry, resolved again, finds it.
     */
    @Test
    void aReadInAScopeOpenedBeforeItsUnitMovedIsRefusedForARetry() throws Exception {
        ShardedSessionFactory shards = context.getBean(ShardedSessionFactory.class);
        AccountRepository accounts = context.getBean(AccountRepository.class);
        ShardScopes scopes = context.getBean(ShardScopes.class);
        accounts.save(new Account(7L, "v0"));
        int virtualShard = ((ShardRouterImpl) shards.router()).unitOf(Account.class).placement().virtualShardOf(7L);
        ShardId before = shards.shardFor(Account.class, 7L).orElseThrow();
        ShardId after = before.name().equals("a") ? ShardId.of("b") : ShardId.of("a");

        assertThatThrownBy(() -> scopes.callInUnit(Account.class, 7L, () -> {
            Thread mover = new Thread(() -> shards.admin().move(Set.of(virtualShard), after, MoveOptions.defaults()));
            mover.start();
            join(mover);
            return accounts.findById(7L);
        })).isInstanceOf(ShardMovingException.class).hasMessageContaining("moved");

        assertThat(scopes.callInUnit(Account.class, 7L, () -> accounts.findById(7L))).get()
                .extracting(Account::getOwner).isEqualTo("v0");
        assertThat(shards.shardFor(Account.class, 7L)).contains(after);
    }

    private static void join(Thread thread) {
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Writer 0 renames one account at a time through the {@code @ShardKeyParam} service; writer 1 renames one to four
     * accounts of one virtual shard in one {@code @Modifying} statement inside a {@link ShardScopes} scope.
     */
    private void write(int writer) {
        Ledger service = context.getBean(Ledger.class);
        AccountRepository accounts = context.getBean(AccountRepository.class);
        ShardScopes scopes = context.getBean(ShardScopes.class);
        TransactionTemplate transaction = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
        Random random = new Random(seed + writer);
        List<Versions> mine = ledger.values().stream().filter(v -> v.key % 2 == writer).toList();
        Map<Integer, List<Versions>> byVirtualShard = mine.stream().collect(Collectors.groupingBy(v -> v.virtualShard));
        while (!stop.get()) {
            Versions first = mine.get(random.nextInt(mine.size()));
            List<Versions> written = new ArrayList<>(List.of(first));
            if (writer == 1) {
                List<Versions> siblings = new ArrayList<>(byVirtualShard.get(first.virtualShard));
                siblings.remove(first);
                Collections.shuffle(siblings, random);
                written.addAll(siblings.subList(0, Math.min(siblings.size(), random.nextInt(4))));
            }
            List<Long> keys = written.stream().map(v -> v.key).toList();
            long version = clock.incrementAndGet();
            String owner = "v" + version;
            written.forEach(v -> v.started.add(version));
            boolean wasMoving = moving.get();
            for (int attempt = 0; attempt < 60 && !stop.get(); attempt++) {
                try {
                    int changed = writer == 0 ? service.renameInBulk(first.key, owner)
                            : scopes.callInUnit(Account.class, first.key, () -> transaction.execute(status -> {
                                int rows = accounts.renameAllInBulk(keys, owner);
                                if (rows != keys.size()) {
                                    status.setRollbackOnly();
                                }
                                return rows;
                            }));
                    if (changed == keys.size()) {
                        written.forEach(v -> v.acknowledged = version);
                        if (wasMoving && moving.get()) {
                            acknowledgedWhileMoving.incrementAndGet();
                            if (writer == 1) {
                                acknowledgedInScopes.incrementAndGet();
                            }
                        }
                        break;
                    }
                    missed.incrementAndGet(); // committed nothing (rolled back, or no row): run it again
                } catch (RuntimeException e) {
                    if (!nothingWritten(e)) {
                        written.forEach(v -> v.unknown.add(version));
                        failures.add("writer " + writer + " v" + version + " " + keys + ": " + e);
                        break;
                    }
                    refused.incrementAndGet();
                }
                sleep(2 + random.nextInt(10));
            }
            sleep(1 + random.nextInt(3));
        }
    }

    /** Reads accounts by id through the {@code @ShardKeyParam} service and through a {@link ShardScopes} scope. */
    private void read() {
        Ledger service = context.getBean(Ledger.class);
        AccountRepository accounts = context.getBean(AccountRepository.class);
        ShardScopes scopes = context.getBean(ShardScopes.class);
        Random random = new Random(seed + 7);
        List<Versions> all = List.copyOf(ledger.values());
        while (!stop.get()) {
            Versions account = all.get(random.nextInt(all.size()));
            long before = account.acknowledged;
            boolean wasMoving = moving.get();
            boolean inScope = random.nextBoolean();
            try {
                Account read = inScope ? scopes.callInUnit(Account.class, account.key,
                        () -> accounts.findById(account.key).orElse(null)) : service.read(account.key);
                String path = inScope ? "ShardScopes findById" : "@ShardKeyParam findById";
                if (read == null) {
                    wrong.add(path + " of " + account + " found nothing");
                } else {
                    long version = Long.parseLong(read.getOwner().substring(1));
                    if (version < before || !account.started.contains(version)) {
                        wrong.add(path + " of " + account + " read '" + read.getOwner() + "', acknowledged before: v"
                                + before);
                    }
                }
                if (wasMoving && moving.get()) {
                    readsWhileMoving.incrementAndGet();
                }
            } catch (RuntimeException e) {
                if (!nothingWritten(e)) {
                    failures.add("reader: " + e);
                }
            }
            sleep(random.nextInt(3));
        }
    }

    /** Every account once, on the shard the map names, with its last acknowledged version (or a later unknown one). */
    private List<String> audit(ShardedSessionFactory shards) throws SQLException {
        ((CachedShardDirectory) shards.directory()).refresh();
        Map<Long, List<String>> found = new HashMap<>();
        Map<Long, String> owners = new HashMap<>();
        for (Map.Entry<String, String> shard : urls.entrySet()) {
            try (Connection c = DriverManager.getConnection(shard.getValue());
                 PreparedStatement ps = c.prepareStatement("select id, owner from account");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    found.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(shard.getKey());
                    owners.put(rs.getLong(1), rs.getString(2));
                }
            }
        }
        List<String> problems = new ArrayList<>();
        for (Versions account : ledger.values()) {
            String named = shards.shardFor(Account.class, account.key).orElseThrow().name();
            if (!List.of(named).equals(found.get(account.key))) {
                problems.add(account + " is on " + found.get(account.key) + ", the map names " + named);
            }
            long version = owners.containsKey(account.key) ? Long.parseLong(owners.get(account.key).substring(1)) : -1;
            if (version != account.acknowledged && !(version > account.acknowledged && account.unknown.contains(version))) {
                problems.add(account + " holds v" + version + (version < account.acknowledged
                        ? ": an acknowledged write was lost" : ""));
            }
        }
        return problems;
    }

    /** Whether the failure says nothing was written: the move's refusal, or the guard's (a map that changed). */
    private static boolean nothingWritten(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ShardMovingException || t instanceof WrongShardException) {
                return true;
            }
        }
        return false;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
