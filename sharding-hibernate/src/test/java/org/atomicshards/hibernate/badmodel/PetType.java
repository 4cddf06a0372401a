package org.atomicshards.hibernate.badmodel;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import org.atomicshards.annotations.ReferenceData;

/** Breaks SHARD-023: reference data whose id each shard's identity column would count on its own. */
@Entity
@ReferenceData
public class PetType {
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    Long id;

    String name;
}
