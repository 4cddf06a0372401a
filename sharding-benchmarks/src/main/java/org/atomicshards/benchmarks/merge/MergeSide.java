package org.atomicshards.benchmarks.merge;

import java.time.Duration;
import java.util.function.Function;

import org.atomicshards.benchmarks.reads.AtomicShardsOrderReads;
import org.atomicshards.benchmarks.reads.OrderDataSet;
import org.atomicshards.benchmarks.reads.OrderReads;
import org.atomicshards.benchmarks.reads.ShardingSphereOrderReads;
import org.atomicshards.hibernate.ShardAccess;

/** The sides whose merge memory the {@link RetainedHeapProbe} measures, by command-line name. */
public enum MergeSide {

    ATOMIC_SHARDS("atomicshards", data -> new AtomicShardsOrderReads(data, Duration.ZERO, ShardAccess.PARALLEL)),

    SHARDING_SPHERE("shardingsphere", data -> new ShardingSphereOrderReads(data, Duration.ZERO));

    private final String cliName;
    private final Function<OrderDataSet, OrderReads> factory;

    MergeSide(String cliName, Function<OrderDataSet, OrderReads> factory) {
        this.cliName = cliName;
        this.factory = factory;
    }

    public String cliName() {
        return cliName;
    }

    OrderReads open(OrderDataSet data) {
        return factory.apply(data);
    }

    /** @throws IllegalArgumentException naming the accepted values if {@code name} is none of them */
    public static MergeSide fromCliName(String name) {
        for (MergeSide side : values()) {
            if (side.cliName.equals(name)) {
                return side;
            }
        }
        throw new IllegalArgumentException("Unknown merge side '" + name + "'; use one of "
                + java.util.Arrays.stream(values()).map(MergeSide::cliName).toList());
    }
}
