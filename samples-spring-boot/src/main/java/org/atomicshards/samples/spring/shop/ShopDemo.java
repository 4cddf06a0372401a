package org.atomicshards.samples.spring.shop;

import java.io.PrintStream;
import java.time.LocalDate;
import java.util.List;

import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.spring.ShardScopes;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Sort;

/** What {@link ShopApplication#main} shows: a few units of work, a search across shards and the one-shard rule. */
public class ShopDemo {

    private final ShardedSessionFactory shards;
    private final ShardScopes scopes;
    private final CustomerRepository customers;
    private final ShopService shop;

    /** The demo over a running shop's beans. */
    public ShopDemo(org.springframework.context.ApplicationContext shopContext) {
        this.shards = shopContext.getBean(ShardedSessionFactory.class);
        this.scopes = shopContext.getBean(ShardScopes.class);
        this.customers = shopContext.getBean(CustomerRepository.class);
        this.shop = shopContext.getBean(ShopService.class);
    }

    public void run(PrintStream out) {
        shards.replicate(session -> List.of("DE", "FR", "JP", "US").forEach(code ->
                session.merge(new Country(code, "Country " + code))));
        for (long id = 1; id <= 20; id++) {
            customers.save(new Customer(id, "Customer " + id, "c" + id + "@shop.test", Tier.values()[(int) (id % 3)],
                    List.of("DE", "FR", "JP", "US").get((int) (id % 4))));
            shop.placeOrder(id, 1_000 + 250 * id, LocalDate.of(2026, 1 + (int) (id % 12), 1));
        }
        for (ShardId shard : shards.shards()) {
            long count = shards.callInUnit(Customer.class, firstKeyOn(shard, 0),
                    session -> session.createSelectionQuery("select count(c) from Customer c", Long.class)
                            .getSingleResult());
            out.println("shard " + shard + ": " + count + " customers");
        }
        Page<PurchaseOrder> page = shop.ordersWithStatus(OrderStatus.OPEN,
                PageRequest.of(0, 5, Sort.by(Sort.Order.desc("totalCents"), Sort.Order.asc("id"))));
        out.println("largest open orders across all shards (" + page.getTotalElements() + " in total):");
        page.forEach(order -> out.println("  " + order));
        ShardId first = shards.shardFor(Customer.class, 1L).orElseThrow();
        long elsewhere = shards.shards().stream().filter(shard -> !shard.equals(first))
                .mapToLong(shard -> firstKeyOn(shard, 0)).filter(id -> id > 0).findFirst().orElseThrow();
        try {
            scopes.runInUnit(Customer.class, 1L, () -> customers.save(new Customer(elsewhere, "Renamed",
                    "c" + elsewhere + "@shop.test", Tier.GOLD, "DE")));
        } catch (CrossShardUnitOfWorkException e) {
            out.println("a unit of work is one shard: " + e.getMessage());
        }
    }

    /** The first of the demo's customer ids owned by {@code shard}, or {@code none}. */
    private long firstKeyOn(ShardId shard, long none) {
        for (long id = 1; id <= 20; id++) {
            if (shards.shardFor(Customer.class, id).orElseThrow().equals(shard)) {
                return id;
            }
        }
        return none;
    }
}
