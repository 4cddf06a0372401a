package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.FanOutResult;
import org.atomicshards.hibernate.ShardedResultStream;
import org.junit.jupiter.api.Test;

/**
 * The merge's memory bound, proven by counting the shard rows it holds (not by timing): ORDER BY with max-results
 * holds at most shards x (first + max) rows; a streamed ORDER BY without a limit holds at most shards x fetch-size
 * rows, however many rows the shards have.
 */
class BoundedMemoryTest {

    private final ShardFixture fixture = ShardFixture.h2();
    private final ShardFixture.Layout layout = fixture.layout(TestRouter.Policy.HASH, 8);
    private final CriteriaBuilder cb = fixture.sessionFactory.getCriteriaBuilder();

    private CriteriaQuery<Purchase> byCategoryThenId() {
        CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
        Root<Purchase> p = q.from(Purchase.class);
        return q.select(p).orderBy(cb.desc(p.get("category")), cb.asc(p.get("id")));
    }

    @Test
    void orderByWithMaxResultsHoldsAtMostShardsTimesFirstPlusMax() {
        FanOutResult<Purchase> result = layout.queries().createQuery(byCategoryThenId()).setFirstResult(10)
                .setMaxResults(20).execute();

        assertThat(result.rows()).hasSize(20);
        assertThat(result.peakBufferedRows()).isPositive().isLessThanOrEqualTo(8 * (10 + 20));
        List<Purchase> oracle = fixture.onOracle(s -> s.createQuery(byCategoryThenId()).setFirstResult(10)
                .setMaxResults(20).getResultList());
        assertThat(Rows.normalize(result.rows())).isEqualTo(Rows.normalize(oracle));
    }

    @Test
    void aPagedOrderByLoadsTheShardsRowsOnlyAsTheMergeTakesThem() {
        FanOutResult<Purchase> onDemand = layout.queries().createQuery(byCategoryThenId()).setFirstResult(10)
                .setMaxResults(20).execute();
        FanOutResult<Purchase> readFirst = layout.queries().createQuery(byCategoryThenId()).setFetchSize(30)
                .setFirstResult(10).setMaxResults(20).execute();

        // first + max = 30 rows per shard, fewer than a fetch (256 by default): one row per shard is held at a time
        assertThat(onDemand.peakBufferedRows()).isPositive().isLessThanOrEqualTo(8);
        // with a fetch of 30 rows, each shard's 30 rows are all read before the merge
        assertThat(readFirst.peakBufferedRows()).isGreaterThan(8L * 20);
        assertThat(Rows.normalize(onDemand.rows())).hasSize(20).isEqualTo(Rows.normalize(readFirst.rows()));
    }

    @Test
    void aStreamedOrderByWithoutLimitHoldsAtMostShardsTimesFetchSize() {
        int fetchSize = 16;
        List<Purchase> streamed = new ArrayList<>();
        long peak;
        try (ShardedResultStream<Purchase> stream = layout.queries().createQuery(byCategoryThenId())
                .setFetchSize(fetchSize).openStream()) {
            stream.stream().forEach(streamed::add);
            peak = stream.peakBufferedRows();
        }

        assertThat(streamed).hasSize(fixture.data.purchases.size());
        assertThat(peak).isPositive().isLessThanOrEqualTo(8L * fetchSize);
        List<Purchase> oracle = fixture.onOracle(s -> s.createQuery(byCategoryThenId()).getResultList());
        assertThat(Rows.normalize(streamed)).isEqualTo(Rows.normalize(oracle));
    }

    @Test
    void aStreamWithoutOrderByIsBoundedToo() {
        CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
        q.select(q.from(Purchase.class));
        try (ShardedResultStream<Purchase> stream = layout.queries().createQuery(q).setFetchSize(8).openStream()) {
            assertThat(stream.stream().count()).isEqualTo(fixture.data.purchases.size());
            assertThat(stream.peakBufferedRows()).isLessThanOrEqualTo(8L * 8);
        }
    }

    @Test
    void readingAListHoldsTheWholeResult() {
        CriteriaQuery<Purchase> q = cb.createQuery(Purchase.class);
        q.select(q.from(Purchase.class));
        FanOutResult<Purchase> result = layout.queries().createQuery(q).execute();
        assertThat(result.peakBufferedRows()).isEqualTo(fixture.data.purchases.size());
    }
}
