package org.atomicshards.benchmarks.merge;

/** The two merge queries the heap probe measures, by command-line name. */
public enum MergeQuery {

    /** {@code order by placedAt} limited to {@link MergeBenchmark#LIMIT} rows. */
    FIRST_HUNDRED("first-hundred"),

    /** {@code order by placedAt} streamed to the end; measured half way through. */
    STREAM("stream");

    private final String cliName;

    MergeQuery(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }
}
