package org.atomicshards.spring.indexapp;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;

/** Derived queries on indexed attributes. */
public interface MemberRepository extends JpaRepository<Member, Long> {

    Optional<Member> findByEmail(String email);

    boolean existsByEmail(String email);

    List<Member> findByEmailIn(Collection<String> emails);

    List<Member> findByCityOrderByIdDesc(String city);

    long countByCity(String city);
}
