package org.atomicshards.benchmarks.scale;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.atomicshards.benchmarks.model.PurchaseOrder;
import org.atomicshards.benchmarks.support.AtomicShardsFactories;
import org.atomicshards.benchmarks.support.H2Shards;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.ShardedSessionFactory;

/**
 * Boot time and heap per idle shard at one shard count, in a JVM of its own: create {@code shards} empty in-memory
 * H2 databases (not measured), then
 * <ol>
 *   <li>boot a factory with the library's defaults: the first boot in the JVM ({@code boot-cold-ms}, what an
 *       application sees at start, class loading and interpretation included);</li>
 *   <li>the used heap after a full GC, minus the used heap after a full GC before the boot ({@code heap-booted});
 *       then the same after one {@code count(*)} fan-out has started every shard's pool ({@code heap-touched}: idle
 *       shards, each with its pool's idle connection). The suite divides the growth between two shard counts by the
 *       shards added: the heap per idle shard, without the factory's fixed cost;</li>
 *   <li>the time of that first fan-out ({@code first-fan-out-ms}: it starts every shard's pool) and of closing the
 *       factory ({@code close-ms});</li>
 *   <li>the live threads of the JVM (beyond those before the boot) and the connections open on the shards' databases
 *       (their sessions, counted by each database) once booted ({@code threads-booted}, {@code connections-booted}),
 *       right after that fan-out ({@code threads-fanned-out}, {@code connections-fanned-out}) and after
 *       {@value #IDLE_WAIT_MILLIS} ms without work ({@code threads-idle}, {@code connections-idle}): the factory is
 *       booted with {@value #IDLE_TIMEOUT_SETTING}={@value #IDLE_TIMEOUT_MILLIS} (the least HikariCP accepts; a
 *       setting versions without it ignore) and the suite runs the probe with HikariCP's housekeeping every second
 *       ({@code com.zaxxer.hikari.housekeeping.periodMs}), so that what the pools keep open when idle shows within the
 *       wait;</li>
 *   <li>close it and boot a second factory on the same databases ({@code boot-warm-ms}: the per-shard work without
 *       the JVM's warm-up).</li>
 * </ol>
 * The in-memory databases live in the same heap, so an open H2 connection's session counts as the shard's (a few KiB
 * each; a remote database's session would not be in the application's heap).
 *
 * <p>Usage: {@code ScaleProbe <shards>}; prints one line {@code scale.<figure>=<value>} per figure. Run it with
 * {@code -XX:+UseSerialGC} so that a full GC leaves only live objects.
 */
public final class ScaleProbe {

    /** Prefix of the result lines on standard output; the figure's name and {@code =} follow. */
    public static final String RESULT_PREFIX = "scale.";

    public static final String BOOT_COLD = "boot-cold-ms";
    public static final String BOOT_WARM = "boot-warm-ms";
    public static final String HEAP_BOOTED = "heap-booted";
    public static final String HEAP_TOUCHED = "heap-touched";
    public static final String FIRST_FAN_OUT = "first-fan-out-ms";
    public static final String CLOSE = "close-ms";
    public static final String THREADS_BOOTED = "threads-booted";
    public static final String THREADS_FANNED_OUT = "threads-fanned-out";
    public static final String THREADS_IDLE = "threads-idle";
    public static final String CONNECTIONS_BOOTED = "connections-booted";
    public static final String CONNECTIONS_FANNED_OUT = "connections-fanned-out";
    public static final String CONNECTIONS_IDLE = "connections-idle";

    /** Every figure the probe prints. */
    public static final List<String> FIGURES = List.of(BOOT_COLD, BOOT_WARM, FIRST_FAN_OUT, CLOSE, HEAP_BOOTED,
            HEAP_TOUCHED, THREADS_BOOTED, THREADS_FANNED_OUT, THREADS_IDLE, CONNECTIONS_BOOTED, CONNECTIONS_FANNED_OUT,
            CONNECTIONS_IDLE);

    /** The HikariCP system property the suite sets for the probe: housekeeping every second instead of 30. */
    public static final String HOUSEKEEPING_PERIOD_PROPERTY = "com.zaxxer.hikari.housekeeping.periodMs=1000";

    static final String IDLE_TIMEOUT_SETTING = "atomicshards.pool.idle_timeout_ms";
    static final long IDLE_TIMEOUT_MILLIS = 10_000;
    /**
     * The idle timeout, a few housekeeping runs, and the 5 s for which HikariCP keeps each pool's connection-adder
     * and connection-closer threads after their last task: what is left is what an idle factory keeps.
     */
    static final long IDLE_WAIT_MILLIS = 20_000;

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ScaleProbe() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 1) {
            throw new IllegalArgumentException("Usage: ScaleProbe <shards>");
        }
        int count = Integer.parseInt(args[0]);
        try (H2Shards shards = H2Shards.createUnpooled("scale", count)) {
            long base = usedHeapAfterFullGc();
            int baseThreads = THREADS.getThreadCount();
            long start = System.nanoTime();
            ShardedSessionFactory factory = AtomicShardsFactories.buildWithDefaults(shards, Policies.hash(),
                    Map.of(IDLE_TIMEOUT_SETTING, IDLE_TIMEOUT_MILLIS));
            long cold = System.nanoTime() - start;
            try {
                long booted = usedHeapAfterFullGc() - base;
                printThreadsAndConnections(THREADS_BOOTED, CONNECTIONS_BOOTED, baseThreads, shards);
                start = System.nanoTime();
                long counted = countAll(factory);
                print(FIRST_FAN_OUT, (System.nanoTime() - start) / 1_000_000);
                if (counted != 0) {
                    throw new IllegalStateException("Expected empty shards, counted " + counted);
                }
                long touched = usedHeapAfterFullGc() - base;
                print(HEAP_BOOTED, booted);
                print(HEAP_TOUCHED, touched);
                printThreadsAndConnections(THREADS_FANNED_OUT, CONNECTIONS_FANNED_OUT, baseThreads, shards);
                Thread.sleep(IDLE_WAIT_MILLIS);
                printThreadsAndConnections(THREADS_IDLE, CONNECTIONS_IDLE, baseThreads, shards);
            } finally {
                start = System.nanoTime();
                factory.close();
                print(CLOSE, (System.nanoTime() - start) / 1_000_000);
            }
            start = System.nanoTime();
            AtomicShardsFactories.buildWithDefaults(shards, Policies.hash()).close();
            print(BOOT_COLD, cold / 1_000_000);
            print(BOOT_WARM, (System.nanoTime() - start) / 1_000_000);
        }
    }

    /** The live threads beyond {@code baseThreads}, their names (digits folded) for the log, and the open sessions. */
    private static void printThreadsAndConnections(String threadsFigure, String connectionsFigure, int baseThreads,
                                                   H2Shards shards) {
        print(threadsFigure, THREADS.getThreadCount() - baseThreads);
        Map<String, Integer> byName = new TreeMap<>();
        Thread.getAllStackTraces().keySet()
                .forEach(thread -> byName.merge(thread.getName().replaceAll("\\d+", "#"), 1, Integer::sum));
        System.out.println("# threads at " + threadsFigure + ": " + byName);
        print(connectionsFigure, openConnections(shards));
    }

    /** The sessions open on every shard's database, not counting the one that counts them. */
    private static long openConnections(H2Shards shards) {
        long total = 0;
        for (int i = 0; i < shards.count(); i++) {
            try (Connection connection = shards.direct(i).getConnection();
                 Statement statement = connection.createStatement();
                 ResultSet sessions = statement.executeQuery("select count(*) from information_schema.sessions")) {
                sessions.next();
                total += sessions.getLong(1) - 1;
            } catch (SQLException e) {
                throw new IllegalStateException("Could not count the sessions of shard " + i + ": " + e, e);
            }
        }
        return total;
    }

    static long countAll(ShardedSessionFactory factory) {
        List<Long> counts = factory.fanOut()
                .createQuery("select count(o) from PurchaseOrder o", Long.class)
                .getResultList();
        return counts.get(0);
    }

    private static void print(String figure, long value) {
        System.out.println(RESULT_PREFIX + figure + "=" + value);
    }

    private static long usedHeapAfterFullGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return MEMORY.getHeapMemoryUsage().getUsed();
    }
}
