package org.atomicshards.benchmarks.reads;

import java.util.List;
import java.util.function.LongConsumer;
import java.util.stream.Stream;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.hibernate.SessionFactory;
import org.hibernate.StatelessSession;

/**
 * The two queries through one Hibernate {@link SessionFactory}, on a {@link StatelessSession} (no persistence
 * context, so a stream keeps nothing behind it) and outside a transaction (ShardingSphere runs the shards of a
 * query in parallel only outside one).
 */
final class HibernateOrderQueries {

    static final String BY_PLACED_AT = "select o from PurchaseOrder o order by o.placedAt";

    private HibernateOrderQueries() {
    }

    static List<PurchaseOrder> firstPlaced(SessionFactory sessionFactory, int limit) {
        try (StatelessSession session = sessionFactory.openStatelessSession()) {
            return session.createSelectionQuery(BY_PLACED_AT, PurchaseOrder.class).setMaxResults(limit).getResultList();
        }
    }

    static StreamDigest streamAllByPlacedAt(SessionFactory sessionFactory, LongConsumer afterEachRow) {
        StreamDigest.Builder digest = new StreamDigest.Builder();
        try (StatelessSession session = sessionFactory.openStatelessSession();
             Stream<PurchaseOrder> orders = session.createSelectionQuery(BY_PLACED_AT, PurchaseOrder.class)
                     .getResultStream()) {
            orders.forEach(order -> {
                digest.accept(order);
                afterEachRow.accept(digest.rows());
            });
        }
        return digest.build();
    }
}
