package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.h2.jdbc.JdbcConnection;
import org.junit.jupiter.api.Test;

/**
 * H2 keeps every query a session ran in a cache of that session and checks each cached query at each table's first
 * write in every later transaction: a read the library made for its own bookkeeping (the fence's preparation, the
 * lease of a connection, the lease maintenance and the automatic resume's look for finished operations' arms at each
 * refresh) left there would cost every later unit of work on that connection. After boot, leases and refreshes, the
 * only queries cached on a unit of work's connection are those of the units themselves and the H2 driver's own.
 */
class H2SessionQueriesTest {

    private static final String DRIVER_OWN = "select setting_value from information_schema.settings";

    @Test
    void noBookkeepingReadOfTheLibraryStaysInTheSessionOfAUnitOfWork() throws Exception {
        try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.H2, 2);
             ShardedSessionFactory shards = Fixtures.withDefaultAutoResume(dbs, 16)
                     .property(ShardingSettings.CATALOG_REFRESH_INTERVAL, "100")
                     .property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "true")
                     .build()) {
            for (ShardId shard : List.of(ShardId.of("s0"), ShardId.of("s1"))) {
                long key = Fixtures.keyOn(shards, shard, 1);
                shards.inUnit(User.class, key, session -> session.persist(new User(key, "u" + key)));
                Thread.sleep(350); // a few refreshes, each maintaining the leases on a connection of the pool
                shards.inUnit(User.class, key, session -> session.find(User.class, key).setEmail("renamed"));

                List<String> cached = shards.callInUnit(User.class, key,
                        session -> session.doReturningWork(H2SessionQueriesTest::cachedQueries));

                assertThat(cached).as("queries cached on the session of shard " + shard).isNotEmpty()
                        .allSatisfy(sql -> assertThat(sql.startsWith(DRIVER_OWN) || sql.contains(" from app_user "))
                                .as(sql).isTrue());
            }
        }
    }

    /** The queries (not the data changes) in the H2 session's own cache, lower case. */
    private static List<String> cachedQueries(Connection connection) throws SQLException {
        try {
            Object session = connection.unwrap(JdbcConnection.class).getSession();
            Field cache = session.getClass().getDeclaredField("queryCache");
            cache.setAccessible(true);
            Map<?, ?> commands = (Map<?, ?>) cache.get(session);
            return commands.keySet().stream().map(sql -> sql.toString().toLowerCase(Locale.ROOT))
                    .filter(sql -> sql.startsWith("select") || sql.startsWith("with") || sql.startsWith("values"))
                    .toList();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("H2's session no longer keeps its queries in 'queryCache'; check whether its "
                    + "cache still costs every write and adapt this test", e);
        }
    }
}
