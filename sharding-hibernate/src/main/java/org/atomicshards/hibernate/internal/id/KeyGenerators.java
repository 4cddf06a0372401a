package org.atomicshards.hibernate.internal.id;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.routing.SnowflakeLayout;

/**
 * The key generators of one factory: sequence blocks reserved in the directory, Snowflake ids, version 7 UUIDs.
 * Thread-safe.
 */
public final class KeyGenerators {

    private final CachedShardDirectory directory;
    private final int blockSize;
    private final int worker;
    private final Map<String, SequenceBlock> sequences = new ConcurrentHashMap<>();
    private final AtomicLong virtualTurn = new AtomicLong();
    private long lastMillis = -1;
    private int sequence;

    public KeyGenerators(CachedShardDirectory directory, ShardingConfig config) {
        this(directory, config.sequenceBlockSize(), config.snowflakeWorker());
    }

    /**
     * @param directory source of sequence blocks and of virtual shards (may be null when neither is used)
     * @param blockSize ids per sequence block
     * @param worker this instance's Snowflake worker id, 0-31
     */
    public KeyGenerators(CachedShardDirectory directory, int blockSize, int worker) {
        this.directory = directory;
        this.blockSize = blockSize;
        this.worker = worker;
    }

    /** The next id of the named sequence, converted to {@code type} (an integral type). */
    public Object nextSequenceValue(String sequenceName, Class<?> type) {
        long value = sequences.computeIfAbsent(sequenceName, name -> new SequenceBlock(name)).next();
        return convert(value, type);
    }

    /**
     * Forgets the sequence blocks this instance holds, so that the next id of every sequence comes from a block
     * reserved afterwards (after a sequence's floor was raised: {@link CachedShardDirectory#raiseBlockFloor}). The
     * ids left in the forgotten blocks are never handed out.
     */
    public void discardSequenceBlocks() {
        sequences.clear();
    }

    /**
     * A new Snowflake id on a virtual shard of {@code shard}, the shards' virtual shards taken in turn; or on any
     * virtual shard in turn when {@code shard} is null.
     */
    public long nextSnowflakeOn(ShardId shard) {
        if (shard == null) {
            return nextSnowflake((int) (virtualTurn.getAndIncrement() % directory.virtualShards()));
        }
        List<Integer> virtuals = directory.virtualShardsOf(shard);
        if (virtuals.isEmpty()) {
            throw new UnroutableKeyException("Shard '" + shard + "' owns no virtual shard, so no Snowflake id can "
                    + "route to it. Fix: assign it virtual shards in the directory");
        }
        return nextSnowflake(virtuals.get((int) (virtualTurn.getAndIncrement() % virtuals.size())));
    }

    /** A new Snowflake id encoding {@code virtualShard}; unique per worker (waits for the next millisecond if needed). */
    public synchronized long nextSnowflake(int virtualShard) {
        long now = System.currentTimeMillis() - SnowflakeLayout.EPOCH_MILLIS;
        if (now < lastMillis) {
            now = lastMillis; // the clock went back: keep ids increasing
        }
        if (now == lastMillis) {
            sequence++;
            if (sequence >= 1 << SnowflakeLayout.SEQUENCE_BITS) {
                now = lastMillis + 1; // borrow the next millisecond
                sequence = 0;
            }
        } else {
            sequence = 0;
        }
        lastMillis = now;
        return SnowflakeLayout.compose(now, virtualShard, worker, sequence);
    }

    /**
     * A new version 7 UUID: 48 bits of Unix milliseconds, the version and variant bits, and 74 random bits from
     * {@link ThreadLocalRandom} (not cryptographic: these ids are unique, not secret).
     */
    public UUID nextTimeOrderedUuid() {
        return timeOrderedUuid();
    }

    /** As {@link #nextTimeOrderedUuid()}; needs no factory. */
    public static UUID timeOrderedUuid() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (System.currentTimeMillis() << 16) | 0x7000L | (random.nextInt() & 0x0fffL);
        long low = (random.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(high, low);
    }

    /** A new key of the given generation for a new unit root whose key type is {@code keyType}. */
    public Object newKey(KeyGeneration generation, String sequenceName, Class<?> keyType, ShardId preferredShard) {
        return switch (generation) {
            case APPLICATION -> null;
            case SEQUENCE -> nextSequenceValue(sequenceName, keyType);
            case TIME_ORDERED_UUID -> nextTimeOrderedUuid();
            case SNOWFLAKE -> convert(nextSnowflakeOn(preferredShard), keyType);
        };
    }

    static Object convert(long value, Class<?> type) {
        if (type == Long.class || type == long.class) {
            return value;
        }
        if (type == Integer.class || type == int.class) {
            return Math.toIntExact(value);
        }
        if (type == BigInteger.class) {
            return BigInteger.valueOf(value);
        }
        if (type == Short.class || type == short.class) {
            return (short) Math.toIntExact(value);
        }
        throw new IllegalArgumentException("Cannot generate a " + type.getName() + " id: use Long, Integer or BigInteger");
    }

    /** One sequence's current block; refilled from the directory when exhausted. */
    private final class SequenceBlock {
        private final String name;
        private long next;
        private long limit;

        SequenceBlock(String name) {
            this.name = name;
        }

        synchronized long next() {
            if (next >= limit) {
                next = directory.allocateBlock(name, blockSize, 0);
                limit = next + blockSize;
            }
            return next++;
        }
    }
}
