package org.atomicshards.hibernate.internal.fanout.docs;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardedSessionFactory;

/**
 * The "Queries across shards" example of docs/user-guide.md, runnable: the page shows the tagged region (kept equal by
 * the documentation checks) and the output block {@link FanOutExampleTest} compares with what it prints.
 */
final class FanOutExample {

    private FanOutExample() {
    }

    static void run(PrintStream out) {
        try (ShardedSessionFactory shards = AtomicShards.configure()
                .shard("s0", "jdbc:h2:mem:readme_s0;DB_CLOSE_DELAY=-1")
                .shard("s1", "jdbc:h2:mem:readme_s1;DB_CLOSE_DELAY=-1")
                .shard("s2", "jdbc:h2:mem:readme_s2;DB_CLOSE_DELAY=-1")
                .shard("s3", "jdbc:h2:mem:readme_s3;DB_CLOSE_DELAY=-1")
                .catalog("jdbc:h2:mem:readme_catalog;DB_CLOSE_DELAY=-1")
                .policy(Customer.class, Policies.hash())
                .annotatedClasses(Customer.class, CustomerOrder.class)
                .schemaAction("create")
                .build()) {
            String[] statuses = {"NEW", "PAID", "SHIPPED"};
            for (long customer = 1; customer <= 8; customer++) {
                long id = customer;
                shards.inUnit(Customer.class, id, session -> {
                    session.persist(new Customer(id, "customer " + id));
                    for (int n = 0; n < 3; n++) {
                        session.persist(new CustomerOrder(id * 10 + n, id, statuses[(int) (id + n) % 3],
                                BigDecimal.valueOf(id * 7 + n * 5, 1)));
                    }
                });
            }
            // tag::queries[]
            FanOutQueries queries = shards.fanOut();

            // Criteria: GROUP BY across shards (COUNT and SUM re-aggregated, AVG from per-shard SUM and COUNT).
            CriteriaBuilder cb = queries.criteriaBuilder();
            CriteriaQuery<Object[]> byStatus = cb.createQuery(Object[].class);
            Root<CustomerOrder> o = byStatus.from(CustomerOrder.class);
            byStatus.select(cb.array(o.get("status"), cb.count(o), cb.sum(o.get("total")), cb.avg(o.get("total"))))
                    .groupBy(o.get("status"))
                    .orderBy(cb.asc(o.get("status")));
            for (Object[] row : queries.createQuery(byStatus).getResultList()) {
                out.println(Arrays.toString(row));
            }

            // HQL with a parameter, ORDER BY and paging: each shard returns its first 2 + 3 rows, merged once.
            List<CustomerOrder> page = queries.createQuery(
                            "select o from CustomerOrder o where o.status <> :status order by o.total desc, o.id",
                            CustomerOrder.class)
                    .setParameter("status", "NEW")
                    .setFirstResult(2).setMaxResults(3)
                    .getResultList();
            page.forEach(order -> out.println("order " + order.getId() + " of customer " + order.getCustomerId()
                    + ": " + order.getTotal()));

            // A shard-key predicate prunes: this one runs on one shard, with no merge.
            var oneCustomer = queries.createQuery("select count(o) from CustomerOrder o where o.customerId = 5",
                    Long.class);
            out.println("shards asked: " + oneCustomer.targetShards() + " -> " + oneCustomer.getSingleResult());
            // end::queries[]
        }
    }

    public static void main(String[] args) {
        run(System.out);
    }
}
