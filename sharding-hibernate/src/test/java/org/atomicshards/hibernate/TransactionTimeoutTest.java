package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;

import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A unit of work that outlives atomicshards.transaction_timeout_ms is ended at its deadline, commits nothing and
 * names the shard, whether it is waiting for a statement or in its own code at that moment.
 */
class TransactionTimeoutTest {

    @Test
    @Timeout(120) // without the watchdog the query below runs for hours
    void aStatementStillRunningAtTheDeadlineIsEndedThere() throws Exception {
        try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.H2, 1)) {
            ShardedSessionFactoryBuilder builder = Fixtures.builder(dbs, 4)
                    .property(ShardingSettings.TRANSACTION_TIMEOUT, 2000);
            try (ShardedSessionFactory shards = builder.build()) {
                long[] started = new long[1];
                assertThatThrownBy(() -> shards.inUnit(User.class, 7L, session -> {
                    session.persist(new User(7L, "never committed"));
                    session.flush();
                    started[0] = System.nanoTime();
                    session.createNativeQuery("select max(rand()) from system_range(1, 100000000000)", Object.class)
                            .getSingleResult();
                }))
                        .isInstanceOf(ShardUnavailableException.class)
                        .hasMessageContaining("Shard 's0' did not finish the unit of work within "
                                + ShardingSettings.TRANSACTION_TIMEOUT + " = 2000 ms");
                long ran = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started[0]);
                assertThat(ran).as("the query was ended at the deadline").isLessThan(2_000 + 4_000);
                assertThat(shards.find(User.class, 7L)).isNull();
                shards.inUnit(User.class, 7L, session -> session.persist(new User(7L, "in time")));
                assertThat(shards.find(User.class, 7L).getEmail()).isEqualTo("in time");
            }
        }
    }

    @Test
    void aStatementAfterTheTransactionTimeoutFailsNamingTheShardAndNothingIsCommitted() throws Exception {
        try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.H2, 1)) {
            ShardedSessionFactoryBuilder builder = Fixtures.builder(dbs, 4)
                    .property(ShardingSettings.TRANSACTION_TIMEOUT, 1000);
            try (ShardedSessionFactory shards = builder.build()) {
                assertThatThrownBy(() -> shards.inUnit(User.class, 7L, session -> {
                    session.persist(new User(7L, "too late"));
                    sleep(1_200);
                    session.find(User.class, 8L); // flushes the insert, then reads: both after the deadline
                }))
                        .isInstanceOf(ShardUnavailableException.class)
                        .hasMessageContaining("Shard 's0' did not finish the unit of work within "
                                + ShardingSettings.TRANSACTION_TIMEOUT + " = 1000 ms")
                        .hasMessageContaining("Nothing was committed");
                assertThat(shards.find(User.class, 7L)).isNull();
                shards.inUnit(User.class, 7L, session -> session.persist(new User(7L, "in time")));
                assertThat(shards.find(User.class, 7L).getEmail()).isEqualTo("in time");
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
