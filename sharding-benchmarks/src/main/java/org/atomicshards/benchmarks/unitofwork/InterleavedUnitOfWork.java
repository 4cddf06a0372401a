package org.atomicshards.benchmarks.unitofwork;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
 * <p>Arguments: warm-up rounds, measured rounds, milliseconds per side and round (for example {@code 30 60 500}).
 */
public final class InterleavedUnitOfWork {

    private InterleavedUnitOfWork() {
    }

    public static void main(String[] args) throws Exception {
        int warmUpRounds = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        long roundNanos = Long.parseLong(args[2]) * 1_000_000L;
        Map<String, UnitOfWorkSide> sides = new LinkedHashMap<>();
        sides.put("plain Hibernate", new PlainHibernateSide(Backend.H2));
        sides.put("Atomic Shards", new AtomicShardsSide(Backend.H2));
        sides.put("Atomic Shards, leases off", new AtomicShardsSide(Backend.H2,
                builder -> builder.property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false")));
        Map<String, Measured> measured = new LinkedHashMap<>();
        int thread = 0;
        for (String side : sides.keySet()) {
            measured.put(side, new Measured(OrderRequests.forThread(UnitOfWorkSide.CUSTOMERS, thread++)));
        }
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < warmUpRounds + rounds; round++) {
            List<String> order = new ArrayList<>(sides.keySet());
            Collections.rotate(order, round);
            for (String side : order) {
                Measured m = measured.get(side);
                long cpuBefore = threads.getCurrentThreadCpuTime();
                long start = System.nanoTime();
                long units = 0;
                while (System.nanoTime() - start < roundNanos) {
                    sides.get(side).placeOrder(m.requests.next());
                    units++;
                }
                long elapsed = System.nanoTime() - start;
                if (round >= warmUpRounds) {
                    m.rates.add(units * 1e9 / elapsed);
                    m.cpuNanos += threads.getCurrentThreadCpuTime() - cpuBefore;
                    m.units += units;
                }
            }
        }
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
        final OrderRequests requests;
        final List<Double> rates = new ArrayList<>();
        long cpuNanos;
        long units;

        Measured(OrderRequests requests) {
            this.requests = requests;
        }

        double cpuPerUnit() {
            return cpuNanos / (double) units;
        }
    }
}
