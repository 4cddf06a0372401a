package org.atomicshards.hibernate.admin;

import org.atomicshards.hibernate.AtomicShardsException;

/**
 * {@link ShardAdmin#adopt} found the database not ready to become the first shard (rows without a key, a key column
 * missing, stored ids a generator would collide with, a unit whose policy records placements). Nothing was changed;
 * {@link #report()} lists every problem, each with its fix.
 */
public class AdoptionRefusedException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    private final transient AdoptionReport report;

    public AdoptionRefusedException(AdoptionReport report) {
        super("Cannot adopt the database of shard '" + report.shard() + "' as the first shard: "
                + String.join("; ", report.problems()) + ". Nothing was changed");
        this.report = report;
    }

    /** The checks and every problem found; null only after deserialisation. */
    public AdoptionReport report() {
        return report;
    }
}
