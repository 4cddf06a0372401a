package org.atomicshards.samples.resharding;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.samples.model.Country;
import org.atomicshards.samples.model.Photo;
import org.atomicshards.samples.model.Status;
import org.atomicshards.samples.model.User;

/**
 * The units of work of the sample, each one {@code inUnit} / {@code callInUnit} (so the library's ownership fence
 * covers it during a move), each recorded in the {@link Ledger} once it returned. A write that throws is not
 * recorded: the library guarantees a {@link org.atomicshards.hibernate.ShardMovingException} wrote nothing.
 */
final class UnitWrites {

    private final ShardedSessionFactory shards;
    private final Ledger ledger;
    private final List<Country> countries;

    UnitWrites(ShardedSessionFactory shards, Ledger ledger, List<Country> countries) {
        this.shards = shards;
        this.ledger = ledger;
        this.countries = List.copyOf(countries);
    }

    /** Creates a user with {@code statuses} statuses and {@code photos} photos in one unit of work; returns its id. */
    long createUnit(Random random, int statuses, int photos) {
        User user = new User("fan" + UUID.randomUUID().toString().substring(0, 8) + "@example.com",
                countries.get(random.nextInt(countries.size())));
        shards.shardForWrite(user); // the library allocates the key, so the whole unit can be written at once
        long id = user.getId();
        ledger.starting(1, statuses);
        Set<Long> statusIds = new HashSet<>();
        Set<UUID> photoIds = new HashSet<>();
        shards.inUnit(User.class, id, session -> {
            statusIds.clear();
            photoIds.clear();
            session.persist(user);
            for (int s = 0; s < statuses; s++) {
                Status status = new Status(user, "status " + s + " of " + id, Instant.now());
                session.persist(status);
                statusIds.add(status.getId());
            }
            for (int p = 0; p < photos; p++) {
                Photo photo = new Photo(id, "https://blobs.example.com/" + id + "/" + p);
                session.persist(photo);
                photoIds.add(photo.getId());
            }
        });
        ledger.created(id, user.getEmail(), statusIds, photoIds);
        return id;
    }

    /** Changes a user's email and adds a status, in one unit of work. */
    void update(long id, int n) {
        String email = "fan" + id + "-v" + n + "@example.com";
        ledger.starting(0, 1);
        long status = shards.callInUnit(User.class, id, session -> {
            User user = session.find(User.class, id);
            user.changeEmail(email);
            Status added = new Status(user, "update " + n + " of " + id, Instant.now());
            session.persist(added);
            return added.getId();
        });
        ledger.updated(id, email, status);
    }

    /** Adds a photo to a user. */
    void addPhoto(long id, int n) {
        UUID photo = shards.callInUnit(User.class, id, session -> {
            Photo added = new Photo(id, "https://blobs.example.com/" + id + "/w" + n);
            session.persist(added);
            return added.getId();
        });
        ledger.photoAdded(id, photo);
    }

    /**
     * Reads a user by key (outside a unit of work) and compares its email with the last acknowledged one; only the
     * thread that writes the user may call this, so the two must agree.
     *
     * @return null if they agree, else what differs
     */
    String readBack(long id) {
        String expected = ledger.email(id);
        User user = shards.find(User.class, id);
        if (user == null) {
            return "find(User, " + id + ") found nothing; its last acknowledged email is '" + expected + "'";
        }
        if (!expected.equals(user.getEmail())) {
            return "find(User, " + id + ") read '" + user.getEmail() + "', the last acknowledged email is '"
                    + expected + "'";
        }
        return null;
    }
}
