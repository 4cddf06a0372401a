package org.atomicshards.samples.spring.shop;

import java.util.List;
import java.util.stream.Stream;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Slice;
import org.springframework.data.jpa.repository.JpaRepository;

/** A repository written for one database; it works unchanged on the sharded model. */
public interface CustomerRepository extends JpaRepository<Customer, Long> {

    Page<Customer> findByTier(Tier tier, Pageable pageable);

    Slice<Customer> findByCountryCode(String countryCode, Pageable pageable);

    Stream<Customer> streamByTierOrderByNameAscIdAsc(Tier tier);

    List<Customer> findByNameStartingWithOrderByNameAscIdAsc(String prefix);

    List<Customer> findTop3ByOrderByNameDescIdDesc();

    long countByTier(Tier tier);

    boolean existsByEmail(String email);
}
