package org.atomicshards.spring.testapp;

import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.repository.query.Param;

public interface AccountRepository extends JpaRepository<Account, Long> {

    List<Account> findByOwner(String owner);

    /** Backed by the JPA named query {@code Account.findNamedOwner}. */
    List<Account> findNamedOwner(@Param("owner") String owner);
}
