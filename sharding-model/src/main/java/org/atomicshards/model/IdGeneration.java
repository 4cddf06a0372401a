package org.atomicshards.model;

/**
 * Where an entity's id value comes from.
 */
public enum IdGeneration {
    /** Assigned by the application (no generator). */
    ASSIGNED,
    /** {@code GenerationType.IDENTITY}: an identity/auto-increment column of each database. */
    IDENTITY,
    /** {@code GenerationType.SEQUENCE}: a sequence of each database. */
    SEQUENCE,
    /** {@code GenerationType.TABLE}: a counter table of each database. */
    TABLE,
    /**
     * {@code GenerationType.AUTO}: the provider chooses; Hibernate uses a UUID generator for {@code UUID} ids
     * and a database sequence for everything else.
     */
    AUTO,
    /** {@code GenerationType.UUID} or Hibernate's {@code @UuidGenerator}: unique without any database. */
    UUID,
    /** Any other generator (for example Atomic Shards' shard-safe generators); trusted to be unique across shards. */
    CUSTOM;

    /**
     * True if the generator draws values from one database, so two shards hand out the same values.
     *
     * @param idJavaType the id's Java type name ({@code AUTO} on a {@code java.util.UUID} id generates UUIDs)
     */
    public boolean isDatabaseLocal(String idJavaType) {
        return switch (this) {
            case IDENTITY, SEQUENCE, TABLE -> true;
            case AUTO -> !"java.util.UUID".equals(idJavaType);
            case ASSIGNED, UUID, CUSTOM -> false;
        };
    }
}
