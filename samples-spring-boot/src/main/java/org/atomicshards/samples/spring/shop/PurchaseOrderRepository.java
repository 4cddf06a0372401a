package org.atomicshards.samples.spring.shop;

import java.util.List;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

/** Orders: queries naming the customer run on the customer's shard; the others fan out and merge. */
public interface PurchaseOrderRepository extends JpaRepository<PurchaseOrder, Long> {

    List<PurchaseOrder> findByCustomerIdOrderByPlacedOnAscIdAsc(Long customerId);

    List<PurchaseOrder> findByCustomerIdAndStatus(Long customerId, OrderStatus status);

    @Query("select o from PurchaseOrder o where o.customer.id = :customerId and o.totalCents >= :minCents "
            + "order by o.totalCents desc, o.id")
    List<PurchaseOrder> largeOrdersOf(@Param("customerId") Long customerId, @Param("minCents") long minCents);

    Page<PurchaseOrder> findByStatus(OrderStatus status, Pageable pageable);

    @Query("select o from PurchaseOrder o where o.totalCents between :low and :high")
    Page<PurchaseOrder> findInPriceRange(@Param("low") long low, @Param("high") long high, Pageable pageable);

    long countByStatus(OrderStatus status);

    boolean existsByStatusAndTotalCentsGreaterThan(OrderStatus status, long totalCents);
}
