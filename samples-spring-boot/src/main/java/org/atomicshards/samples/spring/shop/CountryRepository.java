package org.atomicshards.samples.spring.shop;

import org.springframework.data.jpa.repository.JpaRepository;

/** Reference data: read from any shard; written through {@code ShardedSessionFactory.replicate}. */
public interface CountryRepository extends JpaRepository<Country, String> {
}
