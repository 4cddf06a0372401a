package org.atomicshards.processor.internal;

/**
 * Qualified names of the annotations the processor reads. The processor matches annotations by name through
 * mirrors, so it depends on neither the Atomic Shards annotations jar nor Jakarta Persistence.
 */
final class Names {

    static final String ATOMIC_UNIT = "org.atomicshards.annotations.AtomicUnit";
    static final String SHARD_KEY = "org.atomicshards.annotations.ShardKey";
    static final String REFERENCE_DATA = "org.atomicshards.annotations.ReferenceData";
    static final String SHARD_INDEX = "org.atomicshards.annotations.ShardIndex";

    private static final String JPA = "jakarta.persistence.";
    static final String ENTITY = JPA + "Entity";
    static final String MAPPED_SUPERCLASS = JPA + "MappedSuperclass";
    static final String EMBEDDABLE = JPA + "Embeddable";
    static final String ACCESS = JPA + "Access";
    static final String ID = JPA + "Id";
    static final String EMBEDDED_ID = JPA + "EmbeddedId";
    static final String ID_CLASS = JPA + "IdClass";
    static final String EMBEDDED = JPA + "Embedded";
    static final String ATTRIBUTE_OVERRIDE = JPA + "AttributeOverride";
    static final String ATTRIBUTE_OVERRIDES = JPA + "AttributeOverrides";
    static final String TRANSIENT = JPA + "Transient";
    static final String COLUMN = JPA + "Column";
    static final String JOIN_COLUMN = JPA + "JoinColumn";
    static final String JOIN_COLUMNS = JPA + "JoinColumns";
    static final String MANY_TO_ONE = JPA + "ManyToOne";
    static final String ONE_TO_ONE = JPA + "OneToOne";
    static final String ONE_TO_MANY = JPA + "OneToMany";
    static final String MANY_TO_MANY = JPA + "ManyToMany";
    static final String ELEMENT_COLLECTION = JPA + "ElementCollection";
    static final String GENERATED_VALUE = JPA + "GeneratedValue";
    static final String SEQUENCE_GENERATOR = JPA + "SequenceGenerator";
    static final String TABLE_GENERATOR = JPA + "TableGenerator";

    private static final String HIBERNATE = "org.hibernate.annotations.";
    static final String UUID_GENERATOR = HIBERNATE + "UuidGenerator";
    static final String GENERIC_GENERATOR = HIBERNATE + "GenericGenerator";
    static final String ID_GENERATOR_TYPE = HIBERNATE + "IdGeneratorType";

    private Names() {
    }
}
