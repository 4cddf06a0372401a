package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;

/**
 * The writes of the move tests that were acknowledged (the unit of work returned): per user, its last email and how
 * many statuses were committed; and the check that each of them is on the shards exactly once, where routing says.
 */
final class AcknowledgedUsers {

    private final ShardDatabases dbs;
    private final Map<Long, String> emails = new ConcurrentHashMap<>();
    private final Map<Long, Integer> statuses = new ConcurrentHashMap<>();

    AcknowledgedUsers(ShardDatabases dbs) {
        this.dbs = dbs;
    }

    /** The users created and acknowledged so far. */
    List<Long> ids() {
        return List.copyOf(emails.keySet());
    }

    void clear() {
        emails.clear();
        statuses.clear();
    }

    void create(ShardedSessionFactory factory, long id) {
        factory.inUnit(User.class, id, session -> {
            User user = new User(id, "u" + id);
            session.persist(user);
            session.persist(new Status(user, "first"));
        });
        emails.put(id, "u" + id);
        statuses.merge(id, 1, Integer::sum);
    }

    void update(ShardedSessionFactory factory, long id, int n) {
        update(factory, id, n, () -> { });
    }

    /** {@link #update(ShardedSessionFactory, long, int)}, running {@code beforeFlush} at the end of the unit's work. */
    void update(ShardedSessionFactory factory, long id, int n, Runnable beforeFlush) {
        factory.inUnit(User.class, id, session -> {
            User user = session.find(User.class, id);
            user.setEmail("u" + id + "-" + n);
            session.persist(new Status(user, "s" + n));
            beforeFlush.run();
        });
        emails.put(id, "u" + id + "-" + n);
        statuses.merge(id, 1, Integer::sum);
    }

    /** Whether a shard's live table holds user {@code id} as {@link #update} number {@code n} left it (committed). */
    boolean stored(long id, int n) {
        for (ShardDatabase shard : dbs.shards()) {
            try (Connection c = dbs.connect(shard.id());
                 PreparedStatement ps = c.prepareStatement("select email from app_user where id = ?")) {
                ps.setLong(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && ("u" + id + "-" + n).equals(rs.getString(1))) {
                        return true;
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        return false;
    }

    /**
     * Every acknowledged write is present exactly once: each user on exactly one shard, the one routing names, with
     * its last acknowledged email and all its statuses there, none elsewhere.
     */
    void assertEachOnceOnItsShard(ShardedSessionFactory factory) {
        Map<Long, List<String>> userShards = new HashMap<>();
        Map<Long, String> storedEmails = new HashMap<>();
        Map<Long, Map<String, Integer>> statusShards = new HashMap<>();
        for (ShardDatabase shard : dbs.shards()) {
            try (Connection c = dbs.connect(shard.id())) {
                try (PreparedStatement ps = c.prepareStatement("select id, email from app_user");
                     ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        userShards.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(shard.id());
                        storedEmails.put(rs.getLong(1), rs.getString(2));
                    }
                }
                try (PreparedStatement ps = c.prepareStatement("select user_id, count(*) from Status group by user_id");
                     ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        statusShards.computeIfAbsent(rs.getLong(1), k -> new HashMap<>())
                                .put(shard.id(), rs.getInt(2));
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        assertThat(userShards.keySet()).containsExactlyInAnyOrderElementsOf(emails.keySet());
        ((org.atomicshards.hibernate.internal.directory.CachedShardDirectory) factory.directory()).refresh();
        for (Map.Entry<Long, String> entry : emails.entrySet()) {
            long id = entry.getKey();
            String owner = factory.shardFor(User.class, id).orElseThrow().name();
            assertThat(userShards.get(id)).as("shards of user " + id).containsExactly(owner);
            assertThat(storedEmails.get(id)).as("email of user " + id).isEqualTo(entry.getValue());
            assertThat(statusShards.get(id)).as("statuses of user " + id)
                    .isEqualTo(Map.of(owner, statuses.get(id)));
        }
    }
}
