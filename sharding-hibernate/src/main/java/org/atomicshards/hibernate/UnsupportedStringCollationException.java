package org.atomicshards.hibernate;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A fan-out query would compare strings in the merge (ORDER BY, MIN/MAX or a HAVING comparison on a string, or
 * GROUP BY/DISTINCT on a string), but a target shard's database compares strings with a collation the merge does
 * not reproduce, or the target shards compare strings differently from each other, so the merged answer could
 * differ from what one database returns. Thrown before any shard runs the query. The message names the construct,
 * the shards, their collations and the fix.
 */
public class UnsupportedStringCollationException extends UnsupportedFanOutQueryException {

    private static final long serialVersionUID = 1L;

    private final ShardId shard;
    private final String collation;
    private final Map<ShardId, String> collations;

    /** One shard's collation cannot be reproduced by the merge. */
    public UnsupportedStringCollationException(String construct, ShardId shard, String collation,
                                               String explanation) {
        super(construct, "Shard " + shard + " compares strings with the collation '" + collation + "'. "
                + explanation);
        this.shard = shard;
        this.collation = collation;
        this.collations = Map.of(shard, collation);
    }

    /**
     * The target shards compare strings differently from each other.
     *
     * @param collations each target shard's collation, in the order of the targets (at least one)
     */
    public UnsupportedStringCollationException(String construct, Map<ShardId, String> collations,
                                               String explanation) {
        super(construct, "The shards compare strings with different collations (" + list(collations) + "). "
                + explanation);
        Map.Entry<ShardId, String> first = collations.entrySet().iterator().next();
        this.shard = first.getKey();
        this.collation = first.getValue();
        this.collations = Collections.unmodifiableMap(new LinkedHashMap<>(collations));
    }

    private static String list(Map<ShardId, String> collations) {
        StringBuilder text = new StringBuilder();
        collations.forEach((shard, collation) -> text.append(text.length() == 0 ? "" : ", ").append("shard ")
                .append(shard).append(": '").append(collation).append('\''));
        return text.toString();
    }

    /** The (first) shard whose collation the merge cannot reproduce. */
    public ShardId shard() {
        return shard;
    }

    /** That shard's collation as its database names it, e.g. {@code en_US.UTF-8} or {@code utf8mb4_general_ci}. */
    public String collation() {
        return collation;
    }

    /** The collation of every shard the refusal concerns, by shard; never empty. */
    public Map<ShardId, String> collations() {
        return collations;
    }
}
