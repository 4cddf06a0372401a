package org.atomicshards.hibernate;

/**
 * A query contains a construct whose result across shards cannot be merged to what one database would return
 * (for example a window function, or an aggregate nested in an expression). Thrown before any shard is queried.
 * The message names the construct and what to do instead; {@link #construct()} names the construct alone.
 */
public class UnsupportedFanOutQueryException extends FanOutQueryException {

    private static final long serialVersionUID = 1L;

    private final String construct;

    public UnsupportedFanOutQueryException(String construct, String explanation) {
        super("Cannot run this query across shards: " + construct + ". " + explanation);
        this.construct = construct;
    }

    /** The construct that cannot be merged, e.g. {@code "window function row_number()"}. */
    public String construct() {
        return construct;
    }
}
