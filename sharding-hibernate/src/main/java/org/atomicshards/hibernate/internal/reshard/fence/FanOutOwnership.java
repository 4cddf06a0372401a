package org.atomicshards.hibernate.internal.reshard.fence;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal;
import org.atomicshards.hibernate.internal.reshard.journal.StoppedOperations;
import org.atomicshards.hibernate.internal.reshard.move.PromotedBatches;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * Makes a fan-out query return what one database would, while virtual shards move: each shard's claimed virtual
 * shards are read just before its query and its ownership epoch just after (the query's snapshot lies between, and a
 * shard holds a unit's rows in its live tables exactly while it claims the unit's virtual shard, because a release
 * and a promotion change both in one local transaction). The answers merge only if no shard's epoch moved, no virtual
 * shard is claimed by two answering shards, and every virtual shard the map gives an answering shard is claimed by
 * one of them; otherwise the query runs again on a refreshed map (bounded). Thread-safe.
 */
public final class FanOutOwnership {

    private static final int MAX_ATTEMPTS = 400;
    /**
     * After this many runs without one consistent answer (and every as many after), the batches operations promoted and
     * have not released are released, whoever holds them; if there were none, the catalog is asked whether a stopped
     * operation keeps the answers apart, and the query fails at once, naming it.
     */
    private static final int ASK_FOR_STOPPED_OPERATIONS_AFTER = 20;
    /** No epoch read: below any epoch a shard has, and below the -2 of claims taken under a moving epoch. */
    private static final long NOT_READ = Long.MIN_VALUE;
    private static final BitSet NONE = new BitSet();

    private final OwnershipFence fence;
    private final CachedShardDirectory directory;
    private final boolean epochInStatements;
    private final StoppedOperations stoppedOperations;
    private final PromotedBatches promotedBatches;
    private final Map<ShardId, OwnershipFence.Claims> cache = new ConcurrentHashMap<>();
    /** The virtual shards of each owning shard under the last map version a fan-out asked about. */
    private volatile OwnedBuckets owned;

    /** The map's virtual shards of each shard that owns any, under one map version. */
    private record OwnedBuckets(int version, Map<ShardId, BitSet> byShard) {
    }

    private FanOutOwnership(OwnershipFence fence, CachedShardDirectory directory, boolean epochInStatements,
                            StoppedOperations stoppedOperations, PromotedBatches promotedBatches) {
        this.fence = fence;
        this.directory = directory;
        this.epochInStatements = epochInStatements;
        this.stoppedOperations = stoppedOperations;
        this.promotedBatches = promotedBatches;
    }

    /** The check for an Atomic Shards factory; null for any other session factory (nothing to check). */
    public static FanOutOwnership of(SessionFactoryImplementor sessionFactory) {
        MultiTenantConnectionProvider<?> provider = sessionFactory.getServiceRegistry()
                .getService(MultiTenantConnectionProvider.class);
        if (provider == null || !provider.isUnwrappableAs(FenceHolder.class)) {
            return null;
        }
        FenceHolder runtime = provider.unwrap(FenceHolder.class);
        return runtime.fence() == null ? null
                : new FanOutOwnership(runtime.fence(), runtime.directory(), !runtime.shardsInProcess(),
                        runtime.stoppedOperations(), runtime.promotedBatches());
    }

    /**
     * Whether a shard's statement may select the shard's epoch itself ({@link OwnershipFence#EPOCH_FUNCTION}), sparing
     * the statement that would read it after the query: not when the shards run in this JVM. There that statement
     * costs a method call, not a round trip, while H2 evaluates such a subquery once per row and, with it in the
     * statement, reads every row of a count it otherwise answers from an index alone (about 8 times as long over 100
     * rows; a page of 20 out of 100 rows about 2.6 times).
     */
    public boolean epochInStatements() {
        return epochInStatements;
    }

    /**
     * One run of a fan-out query: the map it routes with, what each shard claimed before its query and its epoch
     * after. Create it before the query's target shards are chosen, so that they come from the same map.
     */
    public final class Attempt {
        /** What each shard claimed before its query, and its epoch after it once read. */
        private final Map<ShardId, Observed> observed;
        private final int version;
        /** The map's virtual shards of each shard, at {@link #version}; shared, never modified. */
        private final Map<ShardId, BitSet> map;

        private Attempt() {
            OwnedBuckets current = ownedBuckets();
            version = current.version();
            map = current.byShard();
            // sized for every shard of the map: a fan-out over 256 shards resized it four times
            observed = new ConcurrentHashMap<>(map.size());
        }

        /**
         * Call on the shard's query connection just before the query runs. Runs a statement only on a shard whose
         * claims are not known yet: known claims (read by an earlier query, with the epoch they were read at) are
         * taken as they are, and {@link #after} accepts them only if the shard's epoch still has that value.
         */
        public void before(ShardId shard, Connection connection) throws SQLException {
            OwnershipFence.Claims known = cache.get(shard);
            if (known != null) {
                observed.put(shard, new Observed(known));
                return;
            }
            fence.prepare(shard);
            long epoch = fence.epoch(connection);
            OwnershipFence.Claims cached = cache.get(shard);
            if (cached == null || cached.epoch() != epoch) {
                cached = fence.claims(connection, shard);
                cache.put(shard, cached);
            }
            // claims read under another epoch than the one seen first make the attempt unstable, never wrong
            observed.put(shard, new Observed(cached.epoch() == epoch ? cached
                    : new OwnershipFence.Claims(-2, cached.buckets(), cached.unitsSwitching(), cached.mapVersion())));
        }

        /**
         * Call on the same connection once the query ran (its snapshot taken). The claims {@link #before} took were
         * read before the query started, at epoch e; the epoch only grows, and every change of the shard's claims
         * changes it in the same local transaction. So if the epoch read here, after the query's snapshot, is still
         * e, the snapshot saw epoch e and the claims describe it. If it moved, this attempt is inconsistent, and the
         * claims are read again now for the next attempt.
         */
        public void after(ShardId shard, Connection connection) throws SQLException {
            after(shard, fence.epoch(connection), connection);
        }

        /**
         * {@link #after(ShardId, Connection)} with the epoch the query read itself, in its own snapshot
         * ({@link OwnershipFence#EPOCH_FUNCTION}); the connection runs a statement only when the epoch moved.
         */
        public void after(ShardId shard, long epoch, Connection connection) throws SQLException {
            Observed taken = observed.get(shard);
            if (taken != null) {
                taken.asMapped = taken.claims.buckets().equals(map.getOrDefault(shard, NONE));
                taken.epochAfter = epoch;
            }
            if (taken == null || taken.claims.epoch() != epoch) {
                cache.put(shard, fence.claims(connection, shard));
            }
        }

        /** Null when the answers of {@code answered} form one database's answer; else why not. */
        public String inconsistency(Collection<ShardId> answered) {
            if (directory.version() != version) {
                return "the map changed while the query ran"; // its targets may come from the older map
            }
            boolean allAsMapped = true;
            for (ShardId shard : answered) {
                Observed observation = observed.get(shard);
                if (observation == null || observation.epochAfter != observation.claims.epoch()) {
                    return "ownership on shard '" + shard + "' changed during the query";
                }
                OwnershipFence.Claims claims = observation.claims;
                if (claims.mapVersion() > version) {
                    return "shard '" + shard + "' was changed under map version " + claims.mapVersion()
                            + ", newer than this instance's " + version;
                }
                if (claims.unitsSwitching()) {
                    return "a unit moved alone, or keys of a consistent-hash ring, are switching to or from shard '"
                            + shard + "'";
                }
                allAsMapped &= observation.asMapped;
            }
            // The map gives each virtual shard to one shard: claims equal to it overlap nowhere and leave nothing out.
            return allAsMapped ? null : overlapOrGap(answered);
        }

        /** Whether the answering shards' claims overlap, or leave out a virtual shard the map gives one of them. */
        private String overlapOrGap(Collection<ShardId> answered) {
            BitSet seen = new BitSet();
            BitSet unclaimed = new BitSet();
            for (ShardId shard : answered) {
                BitSet claimed = observed.get(shard).claims.buckets();
                if (seen.intersects(claimed)) {
                    BitSet twice = (BitSet) seen.clone();
                    twice.and(claimed);
                    return "virtual shard " + twice.nextSetBit(0) + " is claimed by two shards (a move is switching it)";
                }
                seen.or(claimed);
                BitSet given = map.get(shard);
                if (given != null) {
                    unclaimed.or(given);
                }
            }
            unclaimed.andNot(seen);
            if (!unclaimed.isEmpty()) {
                return "virtual shard " + unclaimed.nextSetBit(0) + " is claimed by none of the shards queried "
                        + "(moved, or being switched)";
            }
            return null;
        }
    }

    /** One shard's claims, read before its query, and its epoch read after it ({@link #NOT_READ} until then). */
    private static final class Observed {
        final OwnershipFence.Claims claims;
        /** Whether the claims are exactly the virtual shards the attempt's map gives the shard; set with the epoch. */
        volatile boolean asMapped;
        volatile long epochAfter = NOT_READ;

        Observed(OwnershipFence.Claims claims) {
            this.claims = claims;
        }
    }

    /**
     * The virtual shards of each shard under the map in force, built once per map version (a fan-out compares its
     * shards' claims with them, and walking 1,024 virtual shards per query was a fifth of the calling thread's time).
     */
    private OwnedBuckets ownedBuckets() {
        OwnedBuckets known = owned;
        if (known != null && known.version() == directory.version()) {
            return known;
        }
        int seen;
        Map<ShardId, BitSet> byShard = new HashMap<>();
        do {
            seen = directory.version();
            byShard.clear();
            for (ShardId shard : directory.owningShards()) {
                BitSet buckets = new BitSet();
                directory.virtualShardsOf(shard).forEach(buckets::set);
                byShard.put(shard, buckets);
            }
        } while (seen != directory.version());
        OwnedBuckets fresh = new OwnedBuckets(seen, Map.copyOf(byShard));
        owned = fresh;
        return fresh;
    }

    public Attempt attempt() {
        return new Attempt();
    }

    /**
     * Waits a little and refreshes the map before the next run of a query whose answers did not agree.
     *
     * @throws AtomicShardsException after too many runs, rather than ever returning a wrong answer, or sooner when a
     *         stopped resharding operation is what keeps the answers apart (the message names it and the fix)
     */
    public void beforeRetry(int attempt, String inconsistency) {
        boolean released = attempt % ASK_FOR_STOPPED_OPERATIONS_AFTER == 0 && attempt < MAX_ATTEMPTS
                && promotedBatches.release();
        if (!released && (attempt == ASK_FOR_STOPPED_OPERATIONS_AFTER || attempt >= MAX_ATTEMPTS)) {
            String stopped = stoppedOperations.explain(MoveJournal.PROMOTED, -1, "which stopped after promoting "
                    + "a batch on its target and before releasing it on the source: both shards hold the batch");
            if (stopped != null || attempt >= MAX_ATTEMPTS) {
                throw new AtomicShardsException("A fan-out query could not get one consistent answer from the shards "
                        + "in " + attempt + " runs while virtual shards moved (last: " + inconsistency + "). Nothing "
                        + "wrong was returned. " + (stopped == null ? "Fix: run it again once the move's switch is done"
                        : stopped));
            }
        }
        try {
            Thread.sleep(Math.min(20, attempt * 2L));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AtomicShardsException("Interrupted while re-running a fan-out query during a move", e);
        }
        directory.refresh();
    }
}
