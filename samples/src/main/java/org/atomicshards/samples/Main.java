package org.atomicshards.samples;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.logging.Level;
import java.util.logging.Logger;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.WrongShardException;
import org.atomicshards.samples.model.Country;
import org.atomicshards.samples.model.Photo;
import org.atomicshards.samples.model.Status;
import org.atomicshards.samples.model.User;
import org.atomicshards.samples.resharding.ReshardingDemo;
import org.hibernate.Session;

/**
 * The main job: seed 004's User / Status / Photo model on four embedded H2 shards.
 *
 * <ol>
 *   <li>boots one sharded session factory over four in-memory H2 shards (1024 virtual shards, HASH policy with keys
 *       allocated by the library) and creates the schema on every shard;
 *   <li>writes the reference data (countries) to every shard;
 *   <li>writes {@value #USERS} users, each in its own unit of work with 1-3 statuses and 0-2 photos;
 *   <li>reads every user back by key, with its statuses and photos, and checks them;
 *   <li>runs two guards that must fail (a photo of another shard's user, a second shard inside one unit of work)
 *       and checks that nothing was written;
 *   <li>prints the per-shard distribution and the skew (max/min users per shard);
 *   <li>then resharding online ({@link ReshardingDemo}): a second factory starts on one shard, splits to four while a
 *       workload runs, and checks that no acknowledged write is missing, duplicated or on the wrong shard.
 * </ol>
 * Any mismatch throws, so {@code mvn -Pmain-job verify} fails.
 */
public final class Main {

    static final int USERS = 3000;
    private static final int SHARDS = 4;

    private Main() {
    }

    /** Held so that its level stays set: the sample prints its own report, the library only warnings. */
    private static final Logger LIBRARY_LOG = Logger.getLogger("org.atomicshards");

    public static void main(String[] args) {
        LIBRARY_LOG.setLevel(Level.WARNING);
        long started = System.nanoTime();
        double skew = run(args.length > 0 ? Integer.parseInt(args[0]) : USERS);
        ReshardingDemo.run(ReshardingDemo.Settings.mainJob(), System.out);
        System.out.printf("Main job finished in %.1f s (skew %.3f)%n", (System.nanoTime() - started) / 1e9, skew);
    }

    /**
     * Runs the whole job with {@code users} users on fresh in-memory shards.
     *
     * @return the skew: max/min users per shard
     * @throws IllegalStateException if anything read back differs from what was written, or a guard did not hold
     */
    public static double run(int users) {
        try (ShardedSessionFactory shards = boot()) {
            replicateCountries(shards);
            Map<Long, int[]> written = writeUsers(shards, users);
            readBack(shards, written);
            runGuards(shards, written);
            return printDistribution(shards, written.size());
        }
    }

    static ShardedSessionFactory boot() {
        var builder = AtomicShards.configure()
                .annotatedClasses(User.class, Status.class, Photo.class, Country.class)
                .virtualShards(1024)
                .policy(User.class, Policies.hash().withKeyGeneration(KeyGeneration.SEQUENCE))
                .catalog("jdbc:h2:mem:atomicshards-main-job-catalog;DB_CLOSE_DELAY=-1")
                .schemaAction("create-drop");
        for (int i = 0; i < SHARDS; i++) {
            builder.shard("s" + i, "jdbc:h2:mem:atomicshards-main-job-s" + i + ";DB_CLOSE_DELAY=-1");
        }
        ShardedSessionFactory shards = builder.build();
        System.out.println("Booted " + shards.shards().size() + " shards " + shards.shards() + ", "
                + shards.directory().virtualShards() + " virtual shards, directory version " + shards.directory().version());
        return shards;
    }

    private static void replicateCountries(ShardedSessionFactory shards) {
        shards.replicate(session -> {
            session.persist(new Country("FR", "France"));
            session.persist(new Country("JP", "Japan"));
            session.persist(new Country("BR", "Brazil"));
        });
    }

    /** Writes the users; returns, per user id, the number of statuses and photos written. */
    private static Map<Long, int[]> writeUsers(ShardedSessionFactory shards, int users) {
        Random random = new Random(2024);
        String[] countries = {"FR", "JP", "BR"};
        Map<Long, int[]> written = new LinkedHashMap<>();
        for (int i = 0; i < users; i++) {
            Country country = shards.find(Country.class, countries[i % countries.length]);
            User user = new User("user" + i + "@example.com", country);
            shards.persist(user);
            int statuses = 1 + random.nextInt(3);
            int photos = random.nextInt(3);
            shards.inUnit(User.class, user.getId(), session -> {
                User managed = session.getReference(User.class, user.getId());
                for (int s = 0; s < statuses; s++) {
                    session.persist(new Status(managed, "status " + s + " of user " + user.getId(), Instant.now()));
                }
                for (int p = 0; p < photos; p++) {
                    session.persist(new Photo(user.getId(), "https://blobs.example.com/" + user.getId() + "/" + p));
                }
            });
            written.put(user.getId(), new int[] {statuses, photos});
        }
        System.out.println("Wrote " + written.size() + " users with their statuses and photos");
        return written;
    }

    private static void readBack(ShardedSessionFactory shards, Map<Long, int[]> written) {
        written.forEach((id, counts) -> shards.inUnit(User.class, id, session -> {
            User user = session.find(User.class, id);
            if (user == null || !user.getEmail().startsWith("user")) {
                throw new IllegalStateException("User " + id + " was not found on its shard");
            }
            long statuses = session.createQuery("select count(s) from Status s where s.user.id = :id", Long.class)
                    .setParameter("id", id).getSingleResult();
            long photos = session.createQuery("select count(p) from Photo p where p.userId = :id", Long.class)
                    .setParameter("id", id).getSingleResult();
            String country = user.getCountry().getName();
            if (statuses != counts[0] || photos != counts[1] || country == null) {
                throw new IllegalStateException("User " + id + " has " + statuses + " statuses and " + photos
                        + " photos on its shard, expected " + counts[0] + " and " + counts[1]);
            }
        }));
        System.out.println("Read back all " + written.size() + " users by key, with their statuses, photos and country");
    }

    private static void runGuards(ShardedSessionFactory shards, Map<Long, int[]> written) {
        List<Long> ids = new ArrayList<>(written.keySet());
        long first = ids.get(0);
        ShardId firstShard = shards.shardFor(User.class, first).orElseThrow();
        long other = ids.stream().filter(id -> !shards.shardFor(User.class, id).orElseThrow().equals(firstShard))
                .findFirst().orElseThrow();
        long photosBefore = photosOf(shards, other);

        expectRejected(WrongShardException.class, () -> shards.inUnit(User.class, first,
                session -> session.persist(new Photo(other, "https://blobs.example.com/misplaced"))));
        expectRejected(CrossShardUnitOfWorkException.class, () -> shards.inUnit(User.class, first,
                session -> shards.persist(new Photo(other, "https://blobs.example.com/second-shard"))));

        if (photosOf(shards, other) != photosBefore || totalPhotosWithUrlSuffix(shards) != 0) {
            throw new IllegalStateException("A rejected write reached a shard");
        }
    }

    private static void expectRejected(Class<? extends AtomicShardsException> expected, Runnable write) {
        try {
            write.run();
        } catch (AtomicShardsException e) {
            if (!expected.isInstance(e)) {
                throw new IllegalStateException("Expected " + expected.getSimpleName() + " but got " + e, e);
            }
            System.out.println("Guard held: " + expected.getSimpleName() + ": " + e.getMessage());
            return;
        }
        throw new IllegalStateException("The guard " + expected.getSimpleName() + " did not fire");
    }

    private static long photosOf(ShardedSessionFactory shards, long userId) {
        return shards.callInUnit(User.class, userId, session -> session
                .createQuery("select count(p) from Photo p where p.userId = :id", Long.class)
                .setParameter("id", userId).getSingleResult());
    }

    private static long totalPhotosWithUrlSuffix(ShardedSessionFactory shards) {
        long total = 0;
        for (ShardId shard : shards.shards()) {
            try (Session session = shards.openReadOnlySession(shard)) {
                total += session.createQuery("select count(p) from Photo p where p.blobUrl in ('https://blobs.example.com/misplaced', "
                        + "'https://blobs.example.com/second-shard')", Long.class).getSingleResult();
            }
        }
        return total;
    }

    private static double printDistribution(ShardedSessionFactory shards, int expectedUsers) {
        System.out.println();
        System.out.println("shard  virtual shards   users  statuses  photos  countries");
        long max = Long.MIN_VALUE;
        long min = Long.MAX_VALUE;
        long totalUsers = 0;
        for (ShardId shard : shards.shards()) {
            try (Session session = shards.openReadOnlySession(shard)) {
                long users = count(session, "User");
                long statuses = count(session, "Status");
                long photos = count(session, "Photo");
                long countries = count(session, "Country");
                System.out.printf("%-5s  %14d  %6d  %8d  %6d  %9d%n", shard, shards.directory().virtualShardsOf(shard).size(),
                        users, statuses, photos, countries);
                max = Math.max(max, users);
                min = Math.min(min, users);
                totalUsers += users;
            }
        }
        if (totalUsers != expectedUsers) {
            throw new IllegalStateException("The shards hold " + totalUsers + " users, expected " + expectedUsers);
        }
        double skew = (double) max / min;
        System.out.printf("skew (max/min users per shard): %.3f%n", skew);
        return skew;
    }

    private static long count(Session session, String entity) {
        return session.createQuery("select count(e) from " + entity + " e", Long.class).getSingleResult();
    }
}
