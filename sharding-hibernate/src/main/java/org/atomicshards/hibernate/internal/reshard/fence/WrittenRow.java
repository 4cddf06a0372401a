package org.atomicshards.hibernate.internal.reshard.fence;

import org.hibernate.persister.entity.EntityPersister;

/**
 * What a write the guard sees changes, for the change log of a virtual shard being copied: one entity row (with the
 * rows hanging off it), its whole unit, or no row of its own. Named lazily: the row is worked out only when the write
 * must be logged.
 */
public final class WrittenRow {

    /** A write whose rows the log cannot name one by one (a one-to-many collection's foreign keys): its whole unit. */
    public static final WrittenRow WHOLE_UNIT = new WrittenRow(null, null);

    /** A write that changes no row itself (an inverse collection: the rows of its elements log their own writes). */
    public static final WrittenRow NONE = new WrittenRow(null, null);

    private final EntityPersister persister;
    private final Object id;

    private WrittenRow(EntityPersister persister, Object id) {
        this.persister = persister;
        this.id = id;
    }

    /** The row of the entity of {@code persister} with {@code id} (and the rows hanging off it). */
    public static WrittenRow of(EntityPersister persister, Object id) {
        return new WrittenRow(persister, id);
    }

    boolean none() {
        return this == NONE;
    }

    /** The row to log, or null to log the whole unit. */
    ChangedRow row() {
        return persister == null ? null : ChangedRow.of(persister, id);
    }
}
