package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.ExecutionPolicy;
import org.atomicshards.hibernate.FanOutResult;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardAccess;
import org.atomicshards.hibernate.ShardFailure;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardQueryFailedException;
import org.atomicshards.hibernate.ShardTimeoutException;
import org.atomicshards.hibernate.ShardedResultStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * A shard that is down or slower than the timeout: COMPLETE fails naming it, PARTIAL returns the others' rows and
 * names it; shortly afterwards no connection is held and no fan-out thread is busy.
 */
class FanOutFailureTest {

    private final ShardFixture fixture = ShardFixture.h2();
    private ShardFixture.Layout layout;

    @AfterEach
    void closeLayout() {
        if (layout != null) {
            layout.queries().close();
        }
    }

    private ShardFixture.Layout layout(String name, ShardAccess access) {
        return layout(name, access, Duration.ofSeconds(30));
    }

    private ShardFixture.Layout layout(String name, ShardAccess access, Duration timeout) {
        return layout(name, access, timeout, 3);
    }

    private ShardFixture.Layout layout(String name, ShardAccess access, Duration timeout, int threads) {
        layout = fixture.privateLayout(name, 3, FanOutSettings.builder().parallelism(threads).access(access)
                .timeout(timeout).fetchSize(16).build());
        return layout;
    }

    private CriteriaQuery<Purchase> allPurchasesByAmount() {
        CriteriaBuilder cb = fixture.sessionFactory.getCriteriaBuilder();
        CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
        Root<Purchase> p = q.from(Purchase.class);
        return q.select(p).orderBy(cb.asc(p.get("amount")), cb.asc(p.get("id")));
    }

    private long rowsOn(ShardId shard) {
        return fixture.onShard(shard, s -> s.createSelectionQuery("select count(p) from Purchase p", Long.class)
                .getSingleResult());
    }

    /**
     * The caller does not wait for abandoned shards: their statements are cancelled and their connections aborted in
     * the background, so every connection and thread is released within a short grace, not at once.
     */
    private void assertNothingLeaks() {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        for (ShardId shard : layout.router().shards()) {
            while (fixture.pool(shard).getHikariPoolMXBean().getActiveConnections() > 0
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(fixture.pool(shard).getHikariPoolMXBean().getActiveConnections()).as("active connections of "
                    + shard).isZero();
        }
        while (layout.queries().activeThreads() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(layout.queries().activeThreads()).as("busy fan-out threads").isZero();
    }

    @Nested
    class ShardDown {

        @Test
        void completeFailsNamingTheShardAndItsCause() {
            ShardFixture.Layout down = layout("down", ShardAccess.PARALLEL);
            ShardId broken = down.router().shards().get(1);
            fixture.replaceDataSource(broken, BrokenDataSources.down(broken.name()));

            assertThatThrownBy(() -> down.queries().createQuery(allPurchasesByAmount()).getResultList())
                    .isInstanceOf(ShardQueryFailedException.class)
                    .hasMessageContaining("failed on 1 of 3 shard(s): " + broken)
                    .hasMessageContaining("is down (simulated)")
                    .satisfies(e -> assertThat(((ShardQueryFailedException) e).failures())
                            .extracting(ShardFailure::shard).containsExactly(broken));
            assertNothingLeaks();
        }

        @Test
        void aStringOrderByFailsUnderCompleteWhenTheShardsCollationCannotBeRead() {
            ShardFixture.Layout down = layout("nocollation", ShardAccess.PARALLEL);
            ShardId broken = down.router().shards().get(1);
            fixture.replaceDataSource(broken, BrokenDataSources.down(broken.name()));

            assertThatThrownBy(() -> down.queries().createQuery("select p from Purchase p order by p.category, p.id",
                    Purchase.class).getResultList())
                    .isInstanceOf(ShardQueryFailedException.class)
                    .hasMessageContaining("failed on 1 of 3 shard(s): " + broken)
                    .hasMessageContaining("Cannot read the string collation of shard " + broken);
            assertNothingLeaks();
        }

        @Test
        void aStringOrderByUnderPartialLeavesOutTheShardWhoseCollationCannotBeRead() {
            ShardFixture.Layout down = layout("nocollationp", ShardAccess.PARALLEL);
            ShardId broken = down.router().shards().get(2);
            fixture.replaceDataSource(broken, BrokenDataSources.down(broken.name()));

            FanOutResult<Purchase> result = down.queries().createQuery("select p from Purchase p"
                    + " order by p.category, p.id", Purchase.class).setExecutionPolicy(ExecutionPolicy.PARTIAL)
                    .execute();

            assertThat(result.missingShards()).containsExactly(broken);
            long others = down.router().shards().stream().filter(shard -> !shard.equals(broken))
                    .mapToLong(FanOutFailureTest.this::rowsOn).sum();
            assertThat(result.rows()).hasSize((int) others);
            assertNothingLeaks();
        }

        @Test
        void partialReturnsTheOtherShardsAndNamesTheMissingOne() {
            ShardFixture.Layout down = layout("downp", ShardAccess.PARALLEL);
            ShardId broken = down.router().shards().get(2);
            fixture.replaceDataSource(broken, BrokenDataSources.down(broken.name()));

            FanOutResult<Purchase> result = down.queries().createQuery(allPurchasesByAmount())
                    .setExecutionPolicy(ExecutionPolicy.PARTIAL).execute();

            assertThat(result.isComplete()).isFalse();
            assertThat(result.missingShards()).containsExactly(broken);
            assertThat(result.failures().get(0).cause()).hasMessageContaining("is down (simulated)");
            assertThat((long) result.rows().size()).isEqualTo(rowsOn(down.router().shards().get(0))
                    + rowsOn(down.router().shards().get(1)));
            assertThat(result.rows()).allSatisfy(row -> assertThat(down.router().shardOf(row.getAccountId()))
                    .isNotEqualTo(broken));
            assertNothingLeaks();
        }

        @Test
        void completeCancelsTheShardsStillRunning() {
            ShardFixture.Layout mixed = layout("mixed", ShardAccess.PARALLEL);
            ShardId hanging = mixed.router().shards().get(0);
            ShardId broken = mixed.router().shards().get(2);
            fixture.replaceDataSource(hanging, BrokenDataSources.hanging(fixture.pool(hanging)));
            fixture.replaceDataSource(broken, BrokenDataSources.down(broken.name()));

            // The hanging shard's query only ends when it is cancelled; the timeout (30 s) is far away.
            assertThatThrownBy(() -> mixed.queries().createQuery(allPurchasesByAmount()).getResultList())
                    .isInstanceOf(ShardQueryFailedException.class)
                    .satisfies(e -> assertThat(((ShardQueryFailedException) e).failures())
                            .extracting(ShardFailure::shard).containsExactly(broken));
            assertNothingLeaks();
        }

        @Test
        void sequentialAccessFailsTheSameWay() {
            ShardFixture.Layout down = layout("downs", ShardAccess.SEQUENTIAL);
            ShardId broken = down.router().shards().get(0);
            fixture.replaceDataSource(broken, BrokenDataSources.down(broken.name()));

            assertThatThrownBy(() -> down.queries().createQuery(allPurchasesByAmount()).getResultList())
                    .isInstanceOf(ShardQueryFailedException.class)
                    .hasMessageContaining(broken.name());
            assertThat(down.queries().createQuery(allPurchasesByAmount())
                    .setExecutionPolicy(ExecutionPolicy.PARTIAL).execute().missingShards()).containsExactly(broken);
            assertNothingLeaks();
        }
    }

    @Nested
    class ShardSlowerThanTheTimeout {

        @Test
        void completeCancelsAndFailsNamingTheShard() {
            ShardFixture.Layout slow = layout("slow", ShardAccess.PARALLEL, Duration.ofMillis(300));
            ShardId hanging = slow.router().shards().get(0);
            fixture.replaceDataSource(hanging, BrokenDataSources.hanging(fixture.pool(hanging)));

            assertThatThrownBy(() -> slow.queries().createQuery(allPurchasesByAmount()).getResultList())
                    .isInstanceOf(ShardQueryFailedException.class)
                    .hasMessageContaining(hanging + " (ShardTimeoutException: Shard " + hanging
                            + " did not answer within PT0.3S")
                    .hasCauseInstanceOf(ShardTimeoutException.class);
            assertNothingLeaks();
        }

        @Test
        void partialReturnsTheOthersAndNamesTheSlowShard() {
            ShardFixture.Layout slow = layout("slowp", ShardAccess.PARALLEL, Duration.ofSeconds(1));
            ShardId hanging = slow.router().shards().get(1);
            // the healthy shards answer from a translated plan: on a loaded machine a first translation alone took
            // longer than a short timeout, and they were reported missing too
            slow.queries().createQuery(allPurchasesByAmount()).setMaxResults(10).getResultList();
            fixture.replaceDataSource(hanging, BrokenDataSources.hanging(fixture.pool(hanging)));

            FanOutResult<Purchase> result = slow.queries().createQuery(allPurchasesByAmount())
                    .setExecutionPolicy(ExecutionPolicy.PARTIAL).setMaxResults(10).execute();

            assertThat(result.missingShards()).containsExactly(hanging);
            assertThat(result.failures().get(0).cause()).isInstanceOf(ShardTimeoutException.class);
            assertThat(result.rows()).hasSize(10);
            assertNothingLeaks();
        }

        @Test
        void sequentialAccessKeepsTheWholeFanOutWithinTheTimeout() {
            ShardFixture.Layout slow = layout("slows", ShardAccess.SEQUENTIAL, Duration.ofMillis(300));
            ShardId hanging = slow.router().shards().get(0);
            fixture.replaceDataSource(hanging, BrokenDataSources.hanging(fixture.pool(hanging)));

            // The hanging shard only ends when cancelled: without the deadline this would never return.
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(
                    () -> slow.queries().createQuery(allPurchasesByAmount()).getResultList())
                    .isInstanceOf(ShardQueryFailedException.class)
                    .hasMessageContaining(hanging + " (ShardTimeoutException: Shard " + hanging
                            + " did not answer within PT0.3S")
                    .hasCauseInstanceOf(ShardTimeoutException.class));
            assertNothingLeaks();
        }

        @Test
        void sequentialPartialReturnsTheShardsThatAnsweredBeforeTheDeadline() {
            assertOnlyTheShardBeforeTheHangingOneAnswers(layout("slowsp", ShardAccess.SEQUENTIAL,
                    Duration.ofMillis(300)));
        }

        /** One thread for three shards: the shards queue behind the slow one, and the deadline still holds. */
        @Test
        void fewerThreadsThanShardsKeepTheDeadlineAndReleaseEveryShard() {
            assertOnlyTheShardBeforeTheHangingOneAnswers(layout("slowt", ShardAccess.PARALLEL,
                    Duration.ofMillis(300), 1));
        }

        /** Shards run in order, one at a time: shard 0 answers, shard 1 hangs, shard 2 is not reached in time. */
        private void assertOnlyTheShardBeforeTheHangingOneAnswers(ShardFixture.Layout slow) {
            ShardId hanging = slow.router().shards().get(1);
            fixture.replaceDataSource(hanging, BrokenDataSources.hanging(fixture.pool(hanging)));

            FanOutResult<Purchase> result = assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> slow.queries().createQuery(allPurchasesByAmount())
                            .setExecutionPolicy(ExecutionPolicy.PARTIAL).execute());

            assertThat(result.missingShards()).containsExactlyInAnyOrder(hanging, slow.router().shards().get(2));
            assertThat(result.failures()).allSatisfy(failure ->
                    assertThat(failure.cause()).isInstanceOf(ShardTimeoutException.class));
            assertThat((long) result.rows().size()).isEqualTo(rowsOn(slow.router().shards().get(0)));
            assertNothingLeaks();
        }

        @Test
        void fewerThreadsThanShardsRunEveryShard() {
            ShardFixture.Layout few = layout("fewt", ShardAccess.PARALLEL, Duration.ofSeconds(30), 2);
            long all = few.router().shards().stream().mapToLong(FanOutFailureTest.this::rowsOn).sum();

            assertThat(few.queries().createQuery(allPurchasesByAmount()).getResultList()).hasSize((int) all);
            assertThat(few.queries().createQuery("select count(p) from Purchase p", Long.class).getSingleResult())
                    .isEqualTo(all);
            assertNothingLeaks();
        }

        @Test
        void aStreamThatIsClosedEarlyReleasesEveryShard() {
            ShardFixture.Layout healthy = layout("early", ShardAccess.PARALLEL);
            try (ShardedResultStream<Purchase> stream = healthy.queries().createQuery(allPurchasesByAmount())
                    .openStream()) {
                assertThat(stream.stream().limit(3).toList()).hasSize(3);
                for (ShardId shard : healthy.router().shards()) {
                    assertThat(fixture.pool(shard).getHikariPoolMXBean().getActiveConnections()).isOne();
                }
            }
            assertNothingLeaks();
            try (Stream<Purchase> stream = healthy.queries().createQuery(allPurchasesByAmount()).getResultStream()) {
                assertThat(stream.findFirst()).isPresent();
            }
            assertNothingLeaks();
        }
    }

    @Nested
    class ShardLostWhileStreaming {

        @Test
        void completeFailsTheStreamNamingTheShardAndReleasesEveryShard() {
            ShardFixture.Layout lost = layout("lost", ShardAccess.PARALLEL);
            ShardId failing = lost.router().shards().get(1);
            fixture.replaceDataSource(failing, BrokenDataSources.failingAfter(fixture.pool(failing), 20));

            try (ShardedResultStream<Purchase> stream = lost.queries().createQuery(allPurchasesByAmount())
                    .openStream()) {
                assertThatThrownBy(() -> stream.stream().count())
                        .isInstanceOf(ShardQueryFailedException.class)
                        .hasMessageContaining(failing + " (")
                        .hasMessageContaining("simulated loss mid-stream");
            }
            assertNothingLeaks();
        }

        @Test
        void partialKeepsStreamingTheOtherShardsAndNamesTheLostOne() {
            ShardFixture.Layout lost = layout("lostp", ShardAccess.PARALLEL);
            ShardId failing = lost.router().shards().get(0);
            fixture.replaceDataSource(failing, BrokenDataSources.failingAfter(fixture.pool(failing), 20));

            long streamed;
            List<ShardFailure> failures;
            try (ShardedResultStream<Purchase> stream = lost.queries().createQuery(allPurchasesByAmount())
                    .setExecutionPolicy(ExecutionPolicy.PARTIAL).openStream()) {
                streamed = stream.stream().count();
                failures = stream.failures();
            }

            assertThat(failures).extracting(ShardFailure::shard).containsExactly(failing);
            long others = rowsOn(lost.router().shards().get(1)) + rowsOn(lost.router().shards().get(2));
            assertThat(streamed).as("the other shards' rows and the lost shard's rows read before it failed")
                    .isGreaterThanOrEqualTo(others).isLessThan(others + rowsOn(failing));
            assertNothingLeaks();
        }
    }

    @Test
    void theEntryPointStopsItsThreadsWhenClosed() {
        ShardFixture.Layout closing = layout("closing", ShardAccess.PARALLEL);
        List<Purchase> rows = closing.queries().createQuery(allPurchasesByAmount()).setMaxResults(5).getResultList();
        assertThat(rows).hasSize(5);
        closing.queries().close();
        assertThatThrownBy(() -> closing.queries().createQuery(allPurchasesByAmount()).getResultList())
                .isInstanceOf(ShardQueryFailedException.class)
                .hasMessageContaining("rejected");
    }
}
