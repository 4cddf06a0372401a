package org.atomicshards.benchmarks.unitofwork;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.benchmarks.support.Backend;
import org.atomicshards.hibernate.ShardingSettings;

/**
 * The unit-of-work comparison for a machine whose speed drifts, with each side in a JVM of its own: two JVMs run at the
 * same time, each pinned to one CPU ({@code taskset}), so that whatever slows the machine slows both, and neither
 * JVM's compiled code is shaped by the other side's. Each run swaps the CPUs. A side counts its units of work per
 * wall-clock second; the runs' seconds are paired, the first third of each run is dropped as warm-up, and each run
 * gives the median of its per-second ratios. JMH ({@link UnitOfWorkBenchmark}) remains the reference on an idle
 * machine; this is the figure where JMH's runs, one side after the other, cannot separate the sides.
 *
 * <p>Arguments: seconds per run, runs, side A, side B (sides: {@link Side}'s names, for example
 * {@code 45 6 atomic-shards plain}). Needs Linux's {@code taskset} and at least two CPUs.
 */
public final class PairedUnitOfWork {

    /** The sides a run can compare. */
    enum Side {
        PLAIN("plain", () -> new PlainHibernateSide(Backend.H2)),
        /** Plain Hibernate with its multi-tenancy switched on: what Hibernate's multi-tenant path costs by itself. */
        PLAIN_MULTI_TENANT("plain-multi-tenant", () -> new PlainMultiTenantSide(Backend.H2)),
        /** Plain Hibernate with an unused Atomic Shards factory booted in the same JVM: the library's mere presence. */
        PLAIN_BESIDE_LIBRARY("plain-beside-library", () -> new PlainBesideLibrarySide(Backend.H2)),
        ATOMIC_SHARDS("atomic-shards", () -> new AtomicShardsSide(Backend.H2)),
        /** All virtual shards on one database: the library's own cost without the cost of four in-memory databases. */
        ATOMIC_SHARDS_ONE_SHARD("atomic-shards-one-shard", () -> new AtomicShardsSide(Backend.H2, 1,
                UnaryOperator.identity())),
        ATOMIC_SHARDS_METRICS("atomic-shards-metrics", () -> new AtomicShardsSide(Backend.H2,
                builder -> builder.meterRegistry(new SimpleMeterRegistry()))),
        ATOMIC_SHARDS_NO_HOT_SPOTS("atomic-shards-no-hot-spots", () -> new AtomicShardsSide(Backend.H2,
                builder -> builder.property(ShardingSettings.HOT_SPOTS_ENABLED, "false"))),
        ATOMIC_SHARDS_LEASES_OFF("atomic-shards-leases-off", () -> new AtomicShardsSide(Backend.H2,
                builder -> builder.property(ShardingSettings.RESHARDING_CONNECTION_LEASE, "false")));

        final String name;
        final Supplier<UnitOfWorkSide> create;

        Side(String name, Supplier<UnitOfWorkSide> create) {
            this.name = name;
            this.create = create;
        }

        static Side named(String name) {
            for (Side side : values()) {
                if (side.name.equals(name)) {
                    return side;
                }
            }
            throw new IllegalArgumentException("Unknown side '" + name + "'; sides: "
                    + Arrays.stream(values()).map(s -> s.name).toList());
        }
    }

    /** Time the children get to boot their side and load its data before both start counting together. */
    private static final long BOOT_MILLIS = 15_000;

    private PairedUnitOfWork() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("--child")) {
            runChild(Side.named(args[1]), Long.parseLong(args[2]), Long.parseLong(args[3]));
            return;
        }
        if (args.length != 4) {
            throw new IllegalArgumentException("Arguments: seconds per run, runs, side A, side B");
        }
        long seconds = Long.parseLong(args[0]);
        int runs = Integer.parseInt(args[1]);
        Side a = Side.named(args[2]);
        Side b = Side.named(args[3]);
        if (Runtime.getRuntime().availableProcessors() < 2) {
            throw new IllegalStateException("Needs at least two CPUs: one per side");
        }
        List<Double> runMedians = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            int cpuOfA = run % 2;
            long start = System.currentTimeMillis() + BOOT_MILLIS;
            long end = start + seconds * 1000;
            CompletableFuture<Map<Long, Long>> windowsOfA = child(a, cpuOfA, start, end);
            CompletableFuture<Map<Long, Long>> windowsOfB = child(b, 1 - cpuOfA, start, end);
            double median = medianRatio(windowsOfA.get(), windowsOfB.get());
            runMedians.add(median);
            System.out.printf(Locale.ROOT, "run %d: %s on CPU %d, %s on CPU %d: median per-second ratio %.3f%n",
                    run + 1, a.name, cpuOfA, b.name, 1 - cpuOfA, median);
        }
        System.out.printf(Locale.ROOT, "%s / %s: median of %d runs %.3f (runs from %.3f to %.3f)%n", a.name, b.name,
                runs, median(runMedians), Collections.min(runMedians), Collections.max(runMedians));
    }

    /** The paired seconds after the first third (warm-up), without the last, partial one. */
    static double medianRatio(Map<Long, Long> a, Map<Long, Long> b) {
        List<Long> seconds = new ArrayList<>(a.keySet());
        seconds.retainAll(b.keySet());
        Collections.sort(seconds);
        List<Double> ratios = new ArrayList<>();
        for (int i = seconds.size() / 3; i < seconds.size() - 1; i++) {
            long second = seconds.get(i);
            if (b.get(second) > 0) {
                ratios.add(a.get(second) / (double) b.get(second));
            }
        }
        if (ratios.isEmpty()) {
            throw new IllegalStateException("The two sides shared no measured second; run longer");
        }
        return median(ratios);
    }

    private static CompletableFuture<Map<Long, Long>> child(Side side, int cpu, long start, long end)
            throws IOException {
        Process process = PinnedJvm.start(cpu, PairedUnitOfWork.class, "--child", side.name, Long.toString(start),
                Long.toString(end));
        return CompletableFuture.supplyAsync(() -> {
            Map<Long, Long> windows = new TreeMap<>();
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    String[] fields = line.split(" ");
                    windows.put(Long.parseLong(fields[0]), Long.parseLong(fields[1]));
                }
                if (process.waitFor() != 0) {
                    throw new IllegalStateException("The " + side.name + " side failed (exit code "
                            + process.exitValue() + ")");
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return windows;
        });
    }

    /**
     * Boots the side, waits for {@code start}, then prints "second units" for each wall-clock second until
     * {@code end}.
     */
    private static void runChild(Side side, long start, long end) throws InterruptedException {
        try (UnitOfWorkSide running = side.create.get()) {
            OrderRequests requests = new OrderRequests(UnitOfWorkSide.CUSTOMERS);
            long wait = start - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            StringBuilder out = new StringBuilder();
            long second = System.currentTimeMillis() / 1000;
            long units = 0;
            while (true) {
                running.placeOrder(requests.next());
                units++;
                long now = System.currentTimeMillis();
                if (now / 1000 != second) {
                    out.append(second).append(' ').append(units).append('\n');
                    second = now / 1000;
                    units = 0;
                }
                if (now >= end) {
                    break;
                }
            }
            System.out.print(out); // printed at the end: the other side's CPU is not shared with this output
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return AlternatingUnitOfWork.quantile(sorted, 0.5);
    }
}
