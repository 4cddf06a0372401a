package org.atomicshards.hibernate;

/**
 * A fan-out query would compare strings in the merge (ORDER BY, MIN/MAX or a HAVING comparison on a string, or
 * GROUP BY/DISTINCT on a string), but a target shard's database compares strings with a collation the merge does
 * not reproduce, so the merged answer could differ from what one database returns. Thrown before any shard runs
 * the query. The message names the construct, the shard, its collation and the fix.
 */
public class UnsupportedStringCollationException extends UnsupportedFanOutQueryException {

    private static final long serialVersionUID = 1L;

    private final ShardId shard;
    private final String collation;

    public UnsupportedStringCollationException(String construct, ShardId shard, String collation,
                                               String explanation) {
        super(construct, "Shard " + shard + " compares strings with the collation '" + collation + "'. "
                + explanation);
        this.shard = shard;
        this.collation = collation;
    }

    /** The shard whose collation the merge cannot reproduce. */
    public ShardId shard() {
        return shard;
    }

    /** That shard's collation as its database names it, e.g. {@code en_US.UTF-8} or {@code utf8mb4_general_ci}. */
    public String collation() {
        return collation;
    }
}
