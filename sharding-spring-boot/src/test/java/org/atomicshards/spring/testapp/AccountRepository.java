package org.atomicshards.spring.testapp;

import java.util.Collection;
import java.util.List;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface AccountRepository extends JpaRepository<Account, Long> {

    List<Account> findByOwner(String owner);

    /** A query naming the unit's key: it runs on the shard the key routes to. */
    List<Account> findByIdAndOwner(Long id, String owner);

    /** Backed by the JPA named query {@code Account.findNamedOwner}. */
    List<Account> findNamedOwner(@Param("owner") String owner);

    /** A bulk update of one account (a Spring Data {@code @Modifying} query); returns the rows it changed. */
    @Modifying
    @Query("update Account a set a.owner = :owner where a.id = :id")
    int renameInBulk(@Param("id") Long id, @Param("owner") String owner);

    /** A bulk update of several accounts, which must all live on the shard of the transaction. */
    @Modifying
    @Query("update Account a set a.owner = :owner where a.id in :ids")
    int renameAllInBulk(@Param("ids") Collection<Long> ids, @Param("owner") String owner);
}
