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

    /** @throws IllegalArgumentException naming the accepted values if {@code name} is none of them */
    public static MergeQuery fromCliName(String name) {
        for (MergeQuery query : values()) {
            if (query.cliName.equals(name)) {
                return query;
            }
        }
        throw new IllegalArgumentException("Unknown merge query '" + name + "'; use one of "
                + java.util.Arrays.stream(values()).map(MergeQuery::cliName).toList());
    }
}
