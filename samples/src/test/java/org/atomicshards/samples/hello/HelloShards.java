package org.atomicshards.samples.hello;

// tag::main[]
import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardedSessionFactory;

public class HelloShards {
    public static void main(String[] args) {
        try (ShardedSessionFactory shards = AtomicShards.configure()
                .shard("s0", "jdbc:h2:mem:hello_s0;DB_CLOSE_DELAY=-1")
                .shard("s1", "jdbc:h2:mem:hello_s1;DB_CLOSE_DELAY=-1")
                .catalog("jdbc:h2:mem:hello_catalog;DB_CLOSE_DELAY=-1")
                .annotatedClasses(Customer.class, PurchaseOrder.class)
                .schemaAction("create")
                .build()) {
            // One unit of work per customer: one shard, one local transaction.
            for (long id = 1; id <= 10; id++) {
                long customerId = id;
                shards.inUnit(Customer.class, customerId, session -> {
                    session.persist(new Customer(customerId, "customer " + customerId));
                    session.persist(new PurchaseOrder(customerId, 100 * customerId));
                });
            }

            // A key routes to the one shard that owns it.
            Customer seven = shards.find(Customer.class, 7L);
            System.out.println(seven.getName() + " lives on " + shards.shardFor(Customer.class, 7L).orElseThrow());

            // No key: the query runs on every shard and is merged as one database would answer it.
            long orders = shards.fanOut()
                    .createQuery("select count(o) from PurchaseOrder o", Long.class)
                    .getSingleResult();
            System.out.println(orders + " orders on " + shards.shards().size() + " shards");
        }
    }
}
// end::main[]
