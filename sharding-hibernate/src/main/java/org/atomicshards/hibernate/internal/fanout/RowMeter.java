package org.atomicshards.hibernate.internal.fanout;

/**
 * Counts the shard rows a merge holds in memory (cursor buffers, k-way heads) and remembers the peak, so that the
 * memory bound of a merge is observable and testable. Used by one merge at a time (the worker threads only fill
 * buffers before handing them to the merging thread), hence synchronized rather than lock-free.
 */
final class RowMeter {

    private long held;
    private long peak;

    synchronized void add(int rows) {
        held += rows;
        if (held > peak) {
            peak = held;
        }
    }

    synchronized void remove(int rows) {
        held -= rows;
    }

    synchronized long peak() {
        return peak;
    }

    synchronized long held() {
        return held;
    }
}
