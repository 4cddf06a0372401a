package org.atomicshards.samples.spring.shop;

import java.time.LocalDate;

import org.atomicshards.spring.ShardKeyParam;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The shop's units of work. Each {@code @Transactional} method names the customer it works on with
 * {@link ShardKeyParam}: the transaction runs on that customer's shard, and touching another customer's shard inside
 * it throws {@link org.atomicshards.hibernate.CrossShardUnitOfWorkException} and rolls everything back.
 */
@Service
public class ShopService {

    private final CustomerRepository customers;
    private final PurchaseOrderRepository orders;
    private final LoyaltyEventRepository loyalty;

    public ShopService(CustomerRepository customers, PurchaseOrderRepository orders, LoyaltyEventRepository loyalty) {
        this.customers = customers;
        this.orders = orders;
        this.loyalty = loyalty;
    }

    /** Places an order and credits loyalty points, in one transaction on the customer's shard. */
    @Transactional
    public PurchaseOrder placeOrder(@ShardKeyParam(unit = Customer.class) long customerId, long totalCents,
                                    LocalDate placedOn) {
        Customer customer = customers.findById(customerId)
                .orElseThrow(() -> new IllegalArgumentException("No customer " + customerId));
        PurchaseOrder order = orders.save(new PurchaseOrder(customer, OrderStatus.OPEN, totalCents, placedOn));
        loyalty.save(new LoyaltyEvent(customerId, (int) (totalCents / 100), "order " + order.getId()));
        return order;
    }

    /** Pays every open order of the customer; the changes are flushed by dirty checking at commit. */
    @Transactional
    public int payOpenOrders(@ShardKeyParam(unit = Customer.class) long customerId) {
        var open = orders.findByCustomerIdAndStatus(customerId, OrderStatus.OPEN);
        open.forEach(order -> order.setStatus(OrderStatus.PAID));
        return open.size();
    }

    /** Moves a customer up a tier; the change is flushed by dirty checking at commit. */
    @Transactional
    public void upgrade(@ShardKeyParam(unit = Customer.class) long customerId, Tier tier) {
        customers.findById(customerId).orElseThrow().setTier(tier);
    }

    /** A search across all customers: runs on every shard and merges, in a read-only transaction. */
    @Transactional(readOnly = true)
    public Page<PurchaseOrder> ordersWithStatus(OrderStatus status, Pageable pageable) {
        return orders.findByStatus(status, pageable);
    }
}
