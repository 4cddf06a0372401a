package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import org.atomicshards.hibernate.model.User;
import org.junit.jupiter.api.Test;

/**
 * Shards on H2 in-memory databases written as most H2 tutorials write them, {@code jdbc:h2:mem:shop_0} without
 * {@code DB_CLOSE_DELAY}: H2 drops such a database when its last connection closes, so without the runtime keeping it
 * open the schema and the rows vanished between the boot and the first unit of work or fan-out ("Table ... not found
 * (this database is empty)"). They live as long as the factory, and closing it frees them.
 */
class InMemoryH2ShardsTest {

    private final String name = "shop_" + UUID.randomUUID().toString().substring(0, 8);
    private final String shop0 = "jdbc:h2:mem:" + name + "_0";
    private final String shop1 = "jdbc:h2:mem:" + name + "_1";

    @Test
    void aUnitWrittenAfterTheBootIsCountedByAFanOut() {
        try (ShardedSessionFactory shards = factory()) {
            for (String shard : new String[] {"s0", "s1"}) {
                long key = Fixtures.keyOn(shards, ShardId.of(shard), 1);
                shards.inUnit(User.class, key, session -> session.persist(new User(key, "u" + key + "@example.com")));
            }

            assertThat(shards.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult())
                    .isEqualTo(2L);
        }
    }

    @Test
    void closingTheFactoryFreesTheDatabases() throws SQLException {
        try (ShardedSessionFactory shards = factory()) {
            long key = Fixtures.keyOn(shards, ShardId.of("s1"), 1);
            shards.inUnit(User.class, key, session -> session.persist(new User(key, "u" + key + "@example.com")));
            assertThat(tables(shop1)).as("while the factory is open").isPositive();
        }

        assertThat(tables(shop0)).as("s0 after close: a new, empty database").isZero();
        assertThat(tables(shop1)).as("s1 after close: a new, empty database").isZero();
    }

    private ShardedSessionFactory factory() {
        return AtomicShards.configure()
                .shard("s0", shop0)
                .shard("s1", shop1)
                .catalog("jdbc:h2:mem:" + name + "_catalog;DB_CLOSE_DELAY=-1")
                .annotatedClasses(Fixtures.MODEL)
                .schemaAction("create")
                .build();
    }

    /** The tables in the database at {@code url}, over a connection of its own (which creates the database if none). */
    private static long tables(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "select count(*) from information_schema.tables where table_schema = 'PUBLIC'")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
