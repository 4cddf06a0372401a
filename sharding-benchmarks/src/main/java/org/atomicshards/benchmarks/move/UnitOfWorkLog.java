package org.atomicshards.benchmarks.move;

import java.util.Arrays;
import java.util.List;

/**
 * The units of work one writer thread ran: customer key, start and end ({@link System#nanoTime()}), and whether it
 * committed. Written by its one thread while the load runs, read by others only after that thread has stopped
 * (the thread's end happens-before {@link Thread#join()}).
 */
final class UnitOfWorkLog {

    private long[] keys = new long[1024];
    private long[] starts = new long[1024];
    private long[] ends = new long[1024];
    private boolean[] committed = new boolean[1024];
    private int size;

    void record(long key, long start, long end, boolean commit) {
        if (size == keys.length) {
            int grown = size * 2;
            keys = Arrays.copyOf(keys, grown);
            starts = Arrays.copyOf(starts, grown);
            ends = Arrays.copyOf(ends, grown);
            committed = Arrays.copyOf(committed, grown);
        }
        keys[size] = key;
        starts[size] = start;
        ends[size] = end;
        committed[size] = commit;
        size++;
    }

    int size() {
        return size;
    }

    long key(int i) {
        return keys[i];
    }

    long start(int i) {
        return starts[i];
    }

    long end(int i) {
        return ends[i];
    }

    boolean committed(int i) {
        return committed[i];
    }

    /** Units of work of all {@code logs} that committed with their end in {@code [from, to)}. */
    static long committedBetween(List<UnitOfWorkLog> logs, long from, long to) {
        long count = 0;
        for (UnitOfWorkLog log : logs) {
            for (int i = 0; i < log.size; i++) {
                if (log.committed[i] && log.ends[i] >= from && log.ends[i] < to) {
                    count++;
                }
            }
        }
        return count;
    }

    /** The latencies (ms) of the units of work of all {@code logs} that started and ended in {@code [from, to)}. */
    static Samples latenciesBetween(List<UnitOfWorkLog> logs, long from, long to) {
        Samples latencies = new Samples();
        for (UnitOfWorkLog log : logs) {
            for (int i = 0; i < log.size; i++) {
                if (log.starts[i] >= from && log.ends[i] < to) {
                    latencies.add((log.ends[i] - log.starts[i]) / 1e6);
                }
            }
        }
        return latencies;
    }

    /** How many units of work of all {@code logs} did not commit. */
    static long failed(List<UnitOfWorkLog> logs) {
        long count = 0;
        for (UnitOfWorkLog log : logs) {
            for (int i = 0; i < log.size; i++) {
                if (!log.committed[i]) {
                    count++;
                }
            }
        }
        return count;
    }
}
