package org.atomicshards.samples.spring.shop;

import java.util.List;
import java.util.UUID;

import org.springframework.data.jpa.repository.JpaRepository;

/** Loyalty events: the key is a plain column, the id a UUID that does not encode it. */
public interface LoyaltyEventRepository extends JpaRepository<LoyaltyEvent, UUID> {

    List<LoyaltyEvent> findByCustomerId(Long customerId);
}
