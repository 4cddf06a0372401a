package org.atomicshards.hibernate.admin;

import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.ShardId;

/**
 * The outcome of {@link ShardAdmin#addShard}.
 *
 * @param shard the shard added
 * @param referenceRowsCopied per {@code @ReferenceData} entity name, the rows copied to the new shard (absent: the
 *        table already had rows there and was left as it was)
 * @param referenceDataSource the shard the reference data was copied from
 * @param divergences the reference-data entities whose rows are not the same on every shard (new shard included)
 */
public record ShardAdded(ShardId shard, Map<String, Long> referenceRowsCopied, ShardId referenceDataSource,
                         List<ReferenceDataDivergence> divergences) {

    public ShardAdded {
        referenceRowsCopied = Map.copyOf(referenceRowsCopied);
        divergences = List.copyOf(divergences);
    }
}
