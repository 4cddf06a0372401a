package org.atomicshards.benchmarks.unitofwork;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.atomicshards.benchmarks.support.Backend;
import org.atomicshards.hibernate.ShardingSettings;

/**
 * The unit-of-work comparison for a machine whose speed drifts: plain Hibernate, Atomic Shards with write leases and
 * Atomic Shards with leases off (every unit of work fenced) run in one JVM, in turns of {@code roundMillis} each, the
 * order rotating every round, so that a slow spell of the machine falls on every side alike. It prints each side's
 * median throughput over the measured rounds, the median of the per-round ratios to plain Hibernate, and the CPU time
 * of the running thread per unit of work. JMH ({@link UnitOfWorkBenchmark}) remains the reference figure; this one
 * separates the sides where JMH's runs, one side after the other, cannot.
 *
 * <p>Arguments: warm-up rounds, measured rounds, milliseconds per side and round, and optionally the backend
 * ({@code h2}, the default, or {@code postgresql}, on the server of {@code -Dbenchmarks.pg.*}) and the number of threads
 * that run each side's turn at once (default 1; each thread its own customers), for example
 * {@code 10 30 500 postgresql 8}.
 */
public final class InterleavedUnitOfWork {

    private InterleavedUnitOfWork() {
    }

    public static void main(String[] args) throws Exception {
        int warmUpRounds = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        long roundNanos = Long.parseLong(args[2]) * 1_000_000L;
        Backend backend = args.length > 3 ? Backend.valueOf(args[3].toUpperCase(Locale.ROOT)) : Backend.H2;
        int threadCount = args.length > 4 ? Integer.parseInt(args[4]) : 1;
        Map<String, UnitOfWorkSide> sides = new LinkedHashMap<>();
        sides.put("plain Hibernate", new PlainHibernateSide(backend));
        sides.put("Atomic Shards", new AtomicShardsSide(backend));
        sides.put("Atomic Shards, leases off", new AtomicShardsSide(backend,
                builder -> builder.property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false")));
        Map<String, Measured> measured = new LinkedHashMap<>();
        int thread = 0;
        for (String side : sides.keySet()) {
            List<OrderRequests> requests = new ArrayList<>();
            for (int t = 0; t < threadCount; t++) {
                requests.add(OrderRequests.forThread(UnitOfWorkSide.CUSTOMERS, thread++));
            }
            measured.put(side, new Measured(requests));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ExecutorService pool = Executors.newFixedThreadPool(threadCount);
        for (int round = 0; round < warmUpRounds + rounds; round++) {
            List<String> order = new ArrayList<>(sides.keySet());
            Collections.rotate(order, round);
            for (String side : order) {
                Measured m = measured.get(side);
                long start = System.nanoTime();
                List<Future<long[]>> turns = new ArrayList<>();
                for (OrderRequests requests : m.requests) {
                    turns.add(pool.submit(() -> {
                        long cpuBefore = threads.getCurrentThreadCpuTime();
                        long units = 0;
                        while (System.nanoTime() - start < roundNanos) {
                            sides.get(side).placeOrder(requests.next());
                            units++;
                        }
                        return new long[] {units, threads.getCurrentThreadCpuTime() - cpuBefore};
                    }));
                }
                long units = 0;
                long cpu = 0;
                for (Future<long[]> turn : turns) {
                    long[] done = turn.get();
                    units += done[0];
                    cpu += done[1];
                }
                long elapsed = System.nanoTime() - start;
                if (round >= warmUpRounds) {
                    m.rates.add(units * 1e9 / elapsed);
                    m.cpuNanos += cpu;
                    m.units += units;
                }
            }
        }
        pool.shutdown();
        Measured plain = measured.get("plain Hibernate");
        for (Map.Entry<String, Measured> entry : measured.entrySet()) {
            Measured m = entry.getValue();
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < m.rates.size(); i++) {
                ratios.add(m.rates.get(i) / plain.rates.get(i));
            }
            System.out.printf(Locale.ROOT, "%-26s median %,8.0f units/s, median round ratio to plain Hibernate %.2fx, "
                    + "CPU %,6.0f ns per unit (%.2fx)%n", entry.getKey(), median(m.rates), median(ratios),
                    m.cpuPerUnit(), m.cpuPerUnit() / plain.cpuPerUnit());
        }
        for (UnitOfWorkSide side : sides.values()) {
            side.close();
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get(sorted.size() / 2);
    }

    /** One side's measured rounds. */
    private static final class Measured {
        final List<OrderRequests> requests;
        final List<Double> rates = new ArrayList<>();
        long cpuNanos;
        long units;

        Measured(List<OrderRequests> requests) {
            this.requests = requests;
        }

        double cpuPerUnit() {
            return cpuNanos / (double) units;
        }
    }
}
