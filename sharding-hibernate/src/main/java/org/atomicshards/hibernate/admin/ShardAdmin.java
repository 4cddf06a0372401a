package org.atomicshards.hibernate.admin;

import org.atomicshards.hibernate.ShardId;

/**
 * Changes the topology of a running sharded factory. Every change is recorded in the catalog before it takes effect
 * here; the other instances on the same catalog take it over at their next refresh
 * ({@code atomicshards.catalog.refresh_interval_ms}), and a restart reads it back.
 *
 * <p>Thread-safe: units of work, fan-outs and reference-data writes keep running while the topology changes.
 */
public interface ShardAdmin {

    /**
     * Adds a physical shard to the running factory. In order: checks the id (new, never retired) and the database
     * (reachable, the same kind as the other shards); opens its pool; creates its schema with the factory's schema
     * tooling (Hibernate's {@code update}, then {@code validate}); copies every {@code @ReferenceData} table that is
     * empty there from the first shard, and compares reference data across all shards (differences are in the
     * result and the log); records the shard in the catalog ({@code as_shard}: ONLINE, the URL without credentials);
     * then makes it part of this instance's topology. The shard owns no virtual shard yet: it holds no unit and no
     * fan-out queries it until virtual shards, placements or ring arcs are moved to it.
     *
     * <p>If a step fails, the shard is not recorded and the factory is as before (the pool is closed; tables created
     * on the new database are left there).
     *
     * @return what was copied and compared
     * @throws ShardTopologyException if the id is taken or retired, or the database is of another kind
     * @throws org.atomicshards.hibernate.ShardUnavailableException if the database cannot be reached
     * @throws org.atomicshards.hibernate.ShardSchemaException if its schema cannot be created or validated
     * @throws org.atomicshards.hibernate.CatalogUnavailableException if the catalog cannot be reached
     */
    ShardAdded addShard(NewShard shard);

    /**
     * Adds a physical shard with the factory's default pool size; see {@link #addShard(NewShard)}. A user or
     * password written into the URL is taken out of it, as at boot.
     */
    default ShardAdded addShard(String id, String url, String user, String password) {
        return addShard(NewShard.of(id, url, user, password));
    }

    /**
     * Retires a physical shard that owns nothing: no virtual shard in the catalog's latest map, no placement, no
     * place in a consistent-hash ring. Its status becomes RETIRED in the catalog (the id is never reused), it leaves
     * this instance's topology at once and the other instances' at their next refresh, and its pool is closed once
     * the work in flight on it has ended (bounded by the transaction timeout). The database and its rows are left as
     * they are.
     *
     * @throws ShardStillOwnsDataException naming what it still owns; nothing is changed
     * @throws org.atomicshards.hibernate.UnknownShardException if the shard is not in the topology
     */
    void removeShard(ShardId shard);

    /** {@link #removeShard(ShardId)} by name. */
    default void removeShard(String shard) {
        removeShard(ShardId.of(shard));
    }
}
