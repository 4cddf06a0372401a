package org.atomicshards.spring.testapp;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface EntryRepository extends JpaRepository<Entry, Long> {

    @Modifying
    @Query("delete from Entry e where e.account.id = :accountId")
    int deleteAllOf(@Param("accountId") Long accountId);

    long countByAccountId(Long accountId);
}
