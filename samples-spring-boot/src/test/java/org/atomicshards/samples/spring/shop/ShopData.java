package org.atomicshards.samples.spring.shop;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.atomicshards.hibernate.ShardedSessionFactory;

/**
 * A fixed data set (seeded, so every run is the same): 60 customers over four countries and three tiers, with
 * duplicate names (so that sorts need their tie-breakers), and 0-5 orders each. Loaded into the sharded shop through
 * its repositories, one unit at a time, then copied with the same ids into the oracle.
 */
final class ShopData {

    static final int CUSTOMERS = 60;
    static final List<String> COUNTRIES = List.of("DE", "FR", "JP", "US");
    private static final List<String> NAMES = List.of("Ada", "Grace", "Alan", "Edsger", "Barbara", "Ken", "Niklaus",
            "Donald", "Frances", "John", "Margaret", "Tony");

    final List<Customer> customers = new ArrayList<>();
    final List<PurchaseOrder> orders = new ArrayList<>();

    private ShopData() {
    }

    static ShopData load(ShopContexts shop) {
        ShopData data = new ShopData();
        ShardedSessionFactory shards = shop.shards();
        shards.replicate(session -> COUNTRIES.forEach(code -> session.persist(new Country(code, "Country " + code))));
        shop.oracle(CountryRepository.class).saveAll(COUNTRIES.stream().map(c -> new Country(c, "Country " + c)).toList());

        CustomerRepository customers = shop.sharded(CustomerRepository.class);
        PurchaseOrderRepository orders = shop.sharded(PurchaseOrderRepository.class);
        Random random = new Random(42);
        OrderStatus[] statuses = OrderStatus.values();
        for (long id = 1; id <= CUSTOMERS; id++) {
            Customer customer = customers.save(new Customer(id, NAMES.get(random.nextInt(NAMES.size())),
                    "c" + id + "@shop.test", Tier.values()[random.nextInt(3)], COUNTRIES.get(random.nextInt(4))));
            data.customers.add(customer);
            int count = random.nextInt(6);
            for (int i = 0; i < count; i++) {
                PurchaseOrder order = orders.save(new PurchaseOrder(customer, statuses[random.nextInt(statuses.length)],
                        100 * (1 + random.nextInt(50)), LocalDate.of(2026, 1 + random.nextInt(12), 1 + random.nextInt(28))));
                data.orders.add(order);
            }
        }

        CustomerRepository oracleCustomers = shop.oracle(CustomerRepository.class);
        oracleCustomers.saveAll(data.customers.stream().map(c -> new Customer(c.getId(), c.getName(), c.getEmail(),
                c.getTier(), c.getCountryCode())).toList());
        shop.oracle(PurchaseOrderRepository.class).saveAll(data.orders.stream()
                .map(o -> o.copyFor(oracleCustomers.getReferenceById(o.getCustomer().getId()))).toList());
        return data;
    }
}
