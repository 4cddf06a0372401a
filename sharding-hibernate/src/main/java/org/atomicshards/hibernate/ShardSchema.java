package org.atomicshards.hibernate;

/**
 * Hibernate's schema tooling run on every physical shard in turn (Hibernate's own tooling reaches only one
 * connection under multi-tenancy). Covers all mapped tables, reference data included. Each method stops at the
 * first shard that fails and names it.
 */
public interface ShardSchema {

    /** Drops and creates the mapped tables on every shard. */
    void create();

    /** Adds missing tables and columns on every shard. */
    void update();

    /**
     * Checks the mapped tables on every shard.
     *
     * @throws ShardSchemaException naming the first shard whose schema does not match
     */
    void validate();

    /** Drops the mapped tables on every shard. */
    void drop();
}
