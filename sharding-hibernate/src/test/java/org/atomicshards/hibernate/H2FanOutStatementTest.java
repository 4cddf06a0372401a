package org.atomicshards.hibernate;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.h2.tools.Server;
import org.hibernate.cfg.JdbcSettings;
import org.hibernate.resource.jdbc.spi.StatementInspector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Over embedded H2 shards a fan-out sends each shard the query's own statement and reads the shard's ownership epoch
 * after it (a method call in the same JVM). With the epoch as a subquery in the SELECT list (as over database servers,
 * where it saves a round trip), H2 evaluates the subquery once per row and reads every row of a count it otherwise
 * answers from an index alone.
 */
class H2FanOutStatementTest {

    private final List<String> statements = new CopyOnWriteArrayList<>();
    private ShardDatabases dbs;
    private ShardedSessionFactory shards;

    @BeforeEach
    void boot() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 2);
        shards = Fixtures.builder(dbs, 8)
                .property(JdbcSettings.STATEMENT_INSPECTOR, (StatementInspector) this::recorded).build();
        Fixtures.seedUsersWithTwoStatuses(shards, 20);
    }

    @AfterEach
    void shutDown() {
        shards.close();
        dbs.close();
    }

    @Test
    void eachShardCountsFromItsIndexWithoutTheEpochInTheStatement() throws SQLException {
        statements.clear();

        long count = shards.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult();

        assertThat(count).isEqualTo(20L);
        List<String> counts = statements.stream().filter(sql -> sql.contains("count(")).toList();
        assertThat(counts).as("one count per shard").hasSize(2)
                .allSatisfy(sql -> assertThat(sql).doesNotContainIgnoringCase("as_fence"));
        assertThat(plan(counts.get(0))).as("H2's plan of the shard statement").contains("direct lookup");
    }

    @Test
    void aPagedQueryCarriesNoEpochEither() {
        statements.clear();

        List<Long> first = shards.fanOut().createQuery("select u.id from User u order by u.id", Long.class)
                .setMaxResults(5).getResultList();

        assertThat(first).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(statements).as("the shard statements").hasSize(2)
                .allSatisfy(sql -> assertThat(sql).doesNotContainIgnoringCase("as_fence"));
    }

    @Test
    void overAnH2ServerTheEpochComesWithTheStatement() throws SQLException {
        Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        String databases = "jdbc:h2:tcp://localhost:" + server.getPort() + "/mem:fan_out_statement_" + System.nanoTime();
        try (ShardedSessionFactory remote = AtomicShards.configure().annotatedClasses(Fixtures.MODEL).virtualShards(8)
                .shard("s0", databases + "_s0;DB_CLOSE_DELAY=-1", "sa", "")
                .shard("s1", databases + "_s1;DB_CLOSE_DELAY=-1", "sa", "")
                .catalog(dbs.newCatalogUrl()).schemaAction("create")
                .property(JdbcSettings.STATEMENT_INSPECTOR, (StatementInspector) this::recorded).build()) {
            Fixtures.seedUsersWithTwoStatuses(remote, 20);
            statements.clear();

            long count = remote.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult();

            assertThat(count).isEqualTo(20L);
            assertThat(statements.stream().filter(sql -> sql.contains("count(")).toList()).as("one count per shard")
                    .hasSize(2).allSatisfy(sql -> assertThat(sql).containsIgnoringCase("as_fence"));
        } finally {
            server.stop();
        }
    }

    /** One shard in this JVM and one behind a server: the statements carry the epoch, as over servers alone. */
    @Test
    void withOneShardBehindAServerEveryStatementCarriesTheEpoch() throws SQLException {
        Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        String name = "fan_out_mixed_" + System.nanoTime();
        try (ShardedSessionFactory mixed = AtomicShards.configure().annotatedClasses(Fixtures.MODEL).virtualShards(8)
                .shard("s0", "jdbc:h2:mem:" + name + "_s0;DB_CLOSE_DELAY=-1", "sa", "")
                .shard("s1", "jdbc:h2:tcp://localhost:" + server.getPort() + "/mem:" + name + "_s1;DB_CLOSE_DELAY=-1",
                        "sa", "")
                .catalog(dbs.newCatalogUrl()).schemaAction("create")
                .property(JdbcSettings.STATEMENT_INSPECTOR, (StatementInspector) this::recorded).build()) {
            Fixtures.seedUsersWithTwoStatuses(mixed, 20);
            statements.clear();

            long count = mixed.fanOut().createQuery("select count(u) from User u", Long.class).getSingleResult();
            List<Long> first = mixed.fanOut().createQuery("select u.id from User u order by u.id", Long.class)
                    .setMaxResults(5).getResultList();

            assertThat(count).isEqualTo(20L);
            assertThat(first).containsExactly(0L, 1L, 2L, 3L, 4L);
            assertThat(statements.stream().filter(sql -> sql.contains("count(")).toList()).as("one count per shard")
                    .hasSize(2).allSatisfy(sql -> assertThat(sql).containsIgnoringCase("as_fence"));
        } finally {
            server.stop();
        }
    }

    private String recorded(String sql) {
        statements.add(sql);
        return sql;
    }

    private String plan(String sql) throws SQLException {
        try (Connection connection = dbs.connect(dbs.shards().get(0).id());
             Statement statement = connection.createStatement();
             ResultSet plan = statement.executeQuery("explain " + sql)) {
            assertThat(plan.next()).isTrue();
            return plan.getString(1);
        }
    }
}
