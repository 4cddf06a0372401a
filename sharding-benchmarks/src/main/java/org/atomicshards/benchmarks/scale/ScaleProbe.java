package org.atomicshards.benchmarks.scale;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;

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

    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private ScaleProbe() {
    }

    public static void main(String[] args) {
        if (args.length != 1) {
            throw new IllegalArgumentException("Usage: ScaleProbe <shards>");
        }
        int count = Integer.parseInt(args[0]);
        try (H2Shards shards = H2Shards.createUnpooled("scale", count)) {
            long base = usedHeapAfterFullGc();
            long start = System.nanoTime();
            ShardedSessionFactory factory = AtomicShardsFactories.buildWithDefaults(shards, Policies.hash());
            long cold = System.nanoTime() - start;
            try {
                long booted = usedHeapAfterFullGc() - base;
                start = System.nanoTime();
                long counted = countAll(factory);
                print(FIRST_FAN_OUT, (System.nanoTime() - start) / 1_000_000);
                if (counted != 0) {
                    throw new IllegalStateException("Expected empty shards, counted " + counted);
                }
                long touched = usedHeapAfterFullGc() - base;
                print(HEAP_BOOTED, booted);
                print(HEAP_TOUCHED, touched);
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
