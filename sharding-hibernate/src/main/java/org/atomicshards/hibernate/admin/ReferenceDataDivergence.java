package org.atomicshards.hibernate.admin;

import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.ShardId;

/**
 * A {@code @ReferenceData} entity whose rows differ between shards: the shards grouped by identical content (same
 * row count and same checksum of every row's id and values), largest group first. Replication through
 * {@code ShardedSessionFactory.replicate} keeps shards equal; a difference means a write reached some shards only
 * (e.g. a failed commit reported by {@code ReferenceDataWriteException}) or rows were written around the library.
 *
 * @param entity the entity name
 * @param groups the shards of each distinct content, with its row count
 */
public record ReferenceDataDivergence(String entity, List<Group> groups) {

    /** Shards holding identical rows. */
    public record Group(List<ShardId> shards, long rows) {
    }

    public ReferenceDataDivergence {
        groups = List.copyOf(groups);
    }

    /** The row count per shard. */
    public Map<ShardId, Long> rowsPerShard() {
        Map<ShardId, Long> rows = new java.util.LinkedHashMap<>();
        groups.forEach(group -> group.shards().forEach(shard -> rows.put(shard, group.rows())));
        return rows;
    }

    @Override
    public String toString() {
        return entity + " differs between shards: " + groups.stream()
                .map(g -> g.shards() + " (" + g.rows() + " rows)").toList();
    }
}
