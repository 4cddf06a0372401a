package org.atomicshards.hibernate;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.atomicshards.hibernate.internal.connection.H2ResultReuse;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Once a factory runs on H2, H2 no longer reuses a query's previous result, on any shard or the catalog. With reuse on,
 * H2 can hand a statement, or one of its subqueries alone, a result from before a commit running at the same moment:
 * a fan-out's count during a move then read the rows after a batch's switch and the shard's ownership epoch from
 * before it, and counted the batch on two shards (in a stand-alone run, about once in 40,000 such statements once
 * warm). The test sees reuse directly: a deterministic function is called again by each run of a query that reads it
 * only when H2 runs the query again instead of reusing its result.
 */
public class H2ResultReuseTest {

    private static final AtomicInteger CALLS = new AtomicInteger();

    private ShardDatabases dbs;
    private ShardedSessionFactory shards;
    private String catalog;

    /**
     * Called by H2 through the alias {@code reuse_probe} for each row (its argument is a column); declared
     * deterministic, so H2 may reuse the result of a query calling it.
     */
    public static int probe(int row) {
        return CALLS.incrementAndGet() + row;
    }

    @BeforeEach
    void boot() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 2);
        catalog = dbs.newCatalogUrl();
        shards = Fixtures.builderOnSharedCatalog(dbs, 4).catalog(catalog).build();
    }

    @AfterEach
    void shutDown() {
        shards.close();
        dbs.close();
    }

    @Test
    void noShardAndNotTheCatalogReusesAQueryResult() throws SQLException {
        List<String> urls = new ArrayList<>();
        dbs.shards().forEach(shard -> urls.add(shard.url()));
        urls.add(catalog);
        for (String url : urls) {
            assertThat(runsOfARepeatedQuery(url)).as("how often H2 ran a query asked for twice on " + url).isEqualTo(2);
        }
    }

    @Test
    void aDatabaseTheFactoryDoesNotUseKeepsH2sDefault() throws SQLException {
        try (ShardDatabases other = ShardDatabases.create(DatabaseKind.H2, 1)) {
            assertThat(runsOfARepeatedQuery(other.shards().get(0).url())).as("the probe sees reuse").isEqualTo(1);
        }
    }

    /**
     * A shard or catalog on H2 reached as a user without admin rights cannot have the reuse turned off: the boot fails
     * naming the statement and the user setting to change. (Its URL cannot keep the in-memory database open either, as
     * that is a setting too: the test's admin connection keeps it.)
     */
    @ParameterizedTest
    @ValueSource(strings = {"shard", "catalog"})
    void anH2DatabaseReachedWithoutAdminRightsFailsTheBootNamingTheFix(String which) throws SQLException {
        String database = "reuse_" + which + "_" + System.nanoTime();
        try (Connection admin = DriverManager.getConnection("jdbc:h2:mem:" + database, "sa", "");
             Statement statement = admin.createStatement()) {
            statement.execute("create user app password 'secret'");
            ShardedSessionFactoryBuilder builder = Fixtures.builder(dbs, 4).connectionTimeoutMillis(1_000);
            String setting;
            if (which.equals("shard")) {
                setting = ShardingSettings.SHARD_PREFIX + "s1.user";
                builder.property(ShardingSettings.SHARD_PREFIX + "s1.url", "jdbc:h2:mem:" + database)
                        .property(setting, "app").property(ShardingSettings.SHARD_PREFIX + "s1.password", "secret");
            } else {
                setting = ShardingSettings.CATALOG_USER;
                builder.catalog("jdbc:h2:mem:" + database).property(setting, "app")
                        .property(ShardingSettings.CATALOG_PASSWORD, "secret");
            }
            assertThatThrownBy(builder::build)
                    .hasMessageContaining(H2ResultReuse.TURN_OFF)
                    .hasMessageContaining("needs admin rights")
                    .hasMessageContaining("Fix: connect as an H2 admin user (" + setting + ")")
                    .hasMessageNotContaining("secret");
        }
    }

    private static int runsOfARepeatedQuery(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("create alias if not exists reuse_probe deterministic for \""
                    + H2ResultReuseTest.class.getName() + ".probe\"");
            statement.execute("create table if not exists reuse_probe_rows (id int primary key)");
            statement.execute("insert into reuse_probe_rows values (1)");
            int before = CALLS.get();
            for (int run = 0; run < 2; run++) {
                try (ResultSet rs = statement.executeQuery("select reuse_probe(id) from reuse_probe_rows")) {
                    assertThat(rs.next()).isTrue();
                }
            }
            statement.execute("drop table reuse_probe_rows");
            statement.execute("drop alias reuse_probe");
            return CALLS.get() - before;
        }
    }
}
