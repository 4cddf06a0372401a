package org.atomicshards.hibernate.internal.reshard.move;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.MoveFailedException;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.internal.config.ShardTimeouts;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.directory.RingChange;
import org.atomicshards.hibernate.internal.index.IndexTable;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.fence.StepGuard;
import org.atomicshards.hibernate.internal.reshard.journal.LeaseHeartbeat;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal;
import org.atomicshards.hibernate.internal.reshard.journal.OperationLost;
import org.atomicshards.hibernate.internal.reshard.lease.LeaseRevocation;
import org.atomicshards.hibernate.internal.reshard.schema.ShardSql;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;

/**
 * Runs one recorded move from whatever state its journal says, batch after batch: copy, catch up, verify, freeze,
 * catch up and verify what changed, switch, mark the source switched, promote, release (the protocol of docs/resharding.md).
 * Every state is journalled before its step; every step is idempotent, so running a move again after a crash at any
 * point carries it to completion.
 */
public final class Mover {

    private static final Logger LOG = Logger.getLogger("org.atomicshards.hibernate.resharding");

    /** The operations this instance runs now ({@link #run}, {@link #resume}), on whichever thread. */
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final ShardPools pools;
    private final CachedShardDirectory directory;
    private final ShardRouterImpl router;
    private final OwnershipFence fence;
    private final MoveJournal journal;
    private final String owner;
    private final ShardMetrics metrics;
    private final BatchCopy copy;
    private final LeaseRevocation revocation;

    public Mover(ShardPools pools, CachedShardDirectory directory, ShardRouterImpl router, OwnershipFence fence,
          MoveJournal journal, String owner, ShardMetrics metrics, LeaseRevocation revocation) {
        this.revocation = revocation;
        this.metrics = metrics;
        this.copy = new BatchCopy(metrics);
        this.pools = pools;
        this.directory = directory;
        this.router = router;
        this.fence = fence;
        this.journal = journal;
        this.owner = owner;
    }

    /**
     * A token for a new run of this instance: the journal names it as the owner of the operation the run holds, and
     * every journal write of the run is conditional on it. Never reused, so a claim by another run fences this one.
     */
    public String newToken() {
        return owner + "/" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The units that live on virtual shards (every policy but consistent hashing), with their tables. */
    public List<RowCopier> copiers() {
        List<RowCopier> copiers = new ArrayList<>();
        for (UnitRoutingImpl unit : router.units()) {
            if (unit.placement().policy().usesVirtualShards()) {
                copiers.add(new RowCopier(UnitTables.of(unit)));
            }
        }
        return copiers;
    }

    /** The units {@code move} copies: its one unit's, its ring's unit's, or every unit on virtual shards. */
    private List<RowCopier> copiers(MoveJournal.Move move) {
        if (move.ring() != null) {
            return List.of(new RowCopier(UnitTables.of(ringUnit(move.ring()))));
        }
        List<RowCopier> copiers = copiers();
        if (move.unit() != null) {
            copiers = copiers.stream().filter(c -> c.tables().unit().unitName().equals(move.unit().unitName()))
                    .toList();
        }
        return copiers;
    }

    private UnitRoutingImpl ringUnit(RingChange ring) {
        return router.units().stream().filter(u -> u.unitName().equals(ring.unitName())).findFirst()
                .orElseThrow(() -> new IllegalStateException("This instance has no unit " + ring.unitName()
                        + ", whose consistent-hash ring the move changes"));
    }

    /** The batches of {@code move} in order: one per recorded batch of virtual shards, its one unit, or ring member. */
    private Map<Integer, BatchScope> batches(MoveJournal.Move move, MoveOptions options, StepGuard guard) {
        Map<Integer, BatchScope> scopes = new TreeMap<>();
        if (move.unit() != null) {
            scopes.put(0, new UnitBatch(move.unit(), move.target()));
            return scopes;
        }
        if (move.ring() != null) {
            RingChange ring = move.ring();
            for (int batch = 0; batch < ring.batches(); batch++) {
                scopes.put(batch, new RingBatch(ring, batch, ringUnit(ring), ring.membersAfter(), directory.version()));
            }
            return scopes;
        }
        Map<Integer, List<MoveJournal.Bucket>> recorded = journal.buckets(move.id());
        Map<ShardId, List<Integer>> bySource = new HashMap<>();
        recorded.values().forEach(list -> list.forEach(b -> bySource.computeIfAbsent(b.source(),
                s -> new ArrayList<>()).add(b.bucket())));
        Map<ShardId, SourceKeys> keys = new HashMap<>();
        bySource.forEach((source, buckets) -> keys.put(source, new SourceKeys(buckets,
                new BatchScope.MoveOptionsView(options.freezeTimeout(), options.freezeAttempts(), guard))));
        recorded.forEach((batch, list) -> scopes.put(batch, new BucketBatch(list.get(0).source(), move.target(),
                list.stream().map(MoveJournal.Bucket::bucket).toList(), directory.version(),
                keys.get(list.get(0).source()))));
        return scopes;
    }

    /**
     * Carries {@code move}, a new operation this instance has just recorded as its own, to completion.
     *
     * @throws MoveFailedException if a step failed; the journal records it and the move can be run again
     */
    public MoveReport run(MoveJournal.Move move, MoveOptions options) {
        running.add(move.id()); // a new operation: no other run holds its id
        try {
            return measured(move, options);
        } finally {
            running.remove(move.id());
        }
    }

    /**
     * Claims {@code moveId} for this instance and carries it to its end, unless this instance runs it already (on any
     * thread: the journal names this instance its owner, so a claim would succeed) or another instance holds it.
     *
     * @return the run's report; empty if the operation was left to the run that holds it, or has ended
     * @throws MoveFailedException if a step failed; the journal records it and the move can be run again
     */
    public Optional<MoveReport> resume(String moveId, MoveOptions options) {
        if (!running.add(moveId)) {
            return Optional.empty();
        }
        try {
            return journal.claim(moveId, owner, newToken(), Instant.now().plus(options.lease()))
                    .map(move -> measured(move, options));
        } finally {
            running.remove(moveId);
        }
    }

    private MoveReport measured(MoveJournal.Move move, MoveOptions options) {
        metrics.moveStarted(move.target());
        try {
            MoveReport report = runMove(move, options);
            metrics.moveEnded(move.target(), null);
            return report;
        } catch (MoveFailedException e) {
            metrics.moveEnded(move.target(), e.getCause() != null ? e.getCause() : e);
            throw e;
        } catch (RuntimeException | Error e) {
            metrics.moveEnded(move.target(), e);
            throw e;
        }
    }

    private MoveReport runMove(MoveJournal.Move move, MoveOptions options) {
        if (move.ring() != null) {
            directory.refresh(); // the map version that recorded the change, which the ring batches fence with
        }
        MoveRun run = new MoveRun(move, options, copiers(move));
        try (LeaseHeartbeat heartbeat = LeaseHeartbeat.start(journal, move.id(), run.token, options.lease())) {
            run.heartbeat = heartbeat;
            Map<Integer, BatchScope> batches = batches(move, options, run.shardToken);
            run.batches = batches.size();
            Set<ShardId> targets = new TreeSet<>(Comparator.comparing(ShardId::name));
            batches.values().forEach(scope -> targets.add(scope.target()));
            targets.forEach(fence::prepare);
            batches.values().forEach(scope -> fence.prepare(scope.source()));
            Set<ShardId> involved = new TreeSet<>(Comparator.comparing(ShardId::name));
            batches.values().forEach(scope -> {
                involved.add(scope.source());
                involved.add(scope.target());
            });
            for (ShardId shard : involved) {
                try (Connection connection = connect(shard)) {
                    run.shardToken.adopt(connection); // from now on no earlier run of the operation changes the shard
                }
            }
            heartbeat.confirm(); // a run that claimed after this one adopts after it: its token is the one that stays
            for (ShardId shard : involved) {
                revocation.arm(shard, move.id()); // no leased session runs there from now on
            }
            List<String> warnings = warnOfScans(move, run.copiers, batches.values());
            for (ShardId shard : targets) {
                try (Connection target = connect(shard)) {
                    target.setAutoCommit(true);
                    ShardSql sql = ShardSql.of(target);
                    for (RowCopier copier : run.copiers) {
                        copier.createStaging(target, sql);
                    }
                }
            }
            Set<Integer> all = new TreeSet<>();
            for (Map.Entry<Integer, BatchScope> entry : batches.entrySet()) {
                all.addAll(entry.getValue().targetVirtualShards());
                if (entry.getKey() < move.batch()) {
                    continue; // finished before the interruption
                }
                run.batch = entry.getKey();
                String state = entry.getKey() == move.batch() ? move.state() : MoveJournal.PLANNED;
                runBatch(run, entry.getValue(), state);
            }
            for (ShardId shard : targets) {
                try (Connection target = connect(shard)) {
                    target.setAutoCommit(true);
                    for (RowCopier copier : run.copiers) {
                        copier.dropStaging(target);
                    }
                }
            }
            Duration duration = Duration.between(move.startedAt(), Instant.now());
            String summary = run.unitsMoved + " units, " + run.rowsMoved + " rows in " + duration.toMillis()
                    + " ms; write pauses " + run.pauses.stream().map(Duration::toMillis).toList() + " ms";
            run.ensureHeld();
            if (move.ring() != null) {
                journal.finishRing(move.id(), run.token, move.ring(), summary);
            } else {
                journal.finish(move.id(), run.token, MoveJournal.DONE, summary);
            }
            directory.refresh();
            MoveFaults.at("before-disarm");
            disarm(move, involved);
            forgetTokens(move, involved);
            return new MoveReport(move.id(), Set.copyOf(all), move.target(), run.unitsMoved, run.rowsMoved,
                    Duration.between(run.started, Instant.now()), List.copyOf(run.pauses), directory.version(),
                    warnings);
        } catch (SQLException | RuntimeException e) {
            if (e instanceof MoveFailedException failed) {
                throw failed;
            }
            if (e instanceof OperationLost lost) {
                LOG.warning(lost.getMessage());
                throw new MoveFailedException(lost.getMessage(), move.id(), lost);
            }
            // a shard that went away mid-copy leaves dead connections in its pool: the resume must get fresh ones
            pools.retireConnections(move.target());
            batches(move, options, StepGuard.NONE).values().forEach(scope -> {
                pools.retireConnections(scope.source());
                pools.retireConnections(scope.target());
            });
            try {
                journal.error(move.id(), run.token, e.getClass().getSimpleName() + ": " + e.getMessage());
            } catch (RuntimeException journalDown) {
                e.addSuppressed(journalDown);
            }
            String what = move.ring() != null ? "of shard '" + move.target() + "' " + (move.ring().joining()
                    ? "joining" : "leaving") + " the consistent-hash ring of unit " + move.ring().unitName()
                    : "of " + (move.unit() != null ? move.unit() : "virtual shards " + move.buckets()) + " to shard '"
                    + move.target() + "'";
            throw new MoveFailedException("Move " + move.id() + " " + what + " stopped in batch " + run.batch + ": "
                    + e.getMessage() + ". The map still "
                    + "names, for every " + (move.ring() != null ? "key" : "virtual shard") + ", the shard holding its "
                    + "rows. Fix the cause, then run "
                    + "ShardAdmin.resume()", move.id(), e);
        }
    }

    /**
     * Releases the batch in progress of {@code move}, which the journal records as promoted, on its source, without
     * holding the operation: the rows of the batch live on the target and the source's copy is only in the way of
     * fan-outs, so any instance may delete it at any time. Idempotent, and safe beside the run holding the operation
     * (that run, or the next resume, releases it again, deleting nothing, and records the release).
     */
    public void releasePromoted(MoveJournal.Move move) throws SQLException {
        MoveRun run = new MoveRun(move, MoveOptions.defaults(), copiers(move));
        run.mapVersion = directory.version();
        BatchScope scope = batches(move, MoveOptions.defaults(), StepGuard.NONE).get(move.batch());
        if (scope != null) {
            release(run, scope, null, StepGuard.NONE);
            LOG.info("Operation " + move.id() + ": released batch " + move.batch() + " (" + scope.describe()
                    + ") on shard '" + scope.source() + "', promoted on shard '" + scope.target() + "'");
        }
    }

    /** Lets {@code shards} lease connections again; a shard that cannot be disarmed now is left to a resume. */
    private void disarm(MoveJournal.Move move, Set<ShardId> shards) {
        for (ShardId shard : shards) {
            try {
                revocation.disarm(shard, move.id(), directory.version());
            } catch (SQLException | RuntimeException e) {
                LOG.warning("Move " + move.id() + " finished but could not let shard '" + shard + "' lease "
                        + "connections again (" + e.getMessage() + "); its units of work stay fenced until "
                        + "ShardAdmin.resume()");
            }
        }
    }

    /** Removes the ended operation's run token from {@code shards}; one that cannot be reached keeps a stale row. */
    private void forgetTokens(MoveJournal.Move move, Set<ShardId> shards) {
        for (ShardId shard : shards) {
            try (Connection connection = connect(shard)) {
                RunToken.forget(connection, move.id());
            } catch (SQLException | RuntimeException e) {
                LOG.fine(() -> "Move " + move.id() + " finished but could not remove its run token from shard '"
                        + shard + "': " + e);
            }
        }
    }

    private void runBatch(MoveRun run, BatchScope scope, String recorded) throws SQLException {
        String id = run.move.id();
        ShardId source = scope.source();
        ShardId target = scope.target();
        String state = recorded;
        Map<RowCopier, Set<Object>> keys = null;
        Instant pauseStart = null;
        if (state.equals(MoveJournal.PLANNED) || state.equals(MoveJournal.COPYING)
                || state.equals(MoveJournal.FROZEN)) {
            record(run, MoveJournal.COPYING);
            run.step("before-copy");
            keys = new LinkedHashMap<>();
            try (Connection src = connect(source); Connection dst = connect(target)) {
                ShardSql srcSql = ShardSql.of(src);
                ShardSql dstSql = ShardSql.of(dst);
                startCopy(src, dst, run, scope);
                for (RowCopier copier : run.copiers) {
                    Set<Object> found = new HashSet<>(scope.keysOf(copier, src));
                    keys.put(copier, found);
                    run.unitsTotal += found.size();
                }
                run.batchesScanned++;
                for (RowCopier copier : run.copiers) {
                    copy.copyKeys(run, copier, src, dst, dstSql, new ArrayList<>(keys.get(copier)), true);
                }
                copy.catchUp(run, src, dst, dstSql, scope, keys, BatchCopy.CATCH_UP_ROUNDS, null);
                run.step("after-copy");
                // Verified while writes go on: every row written from now on is logged, and copied again under the
                // freeze, so the freeze verifies only what was copied after this full verification began.
                UnverifiedCopies unverified = new UnverifiedCopies();
                copy.recopy(run, src, dst, dstSql, copy.verify(run, src, srcSql, dst, dstSql, keys), unverified);
                copy.settle(run, src, srcSql, dst, dstSql, scope, keys, unverified);
                run.step("after-verify");
                boolean verified = false;
                for (int attempt = 1; attempt <= run.options.freezeAttempts() && !verified; attempt++) {
                    record(run, MoveJournal.FROZEN);
                    if (!freeze(src, run, scope, run.options.freezeTimeout())) {
                        LOG.info("Move " + id + ": " + scope.describe() + " could not be frozen "
                                + "within " + run.options.freezeTimeout().toMillis() + " ms (attempt " + attempt + ")");
                        record(run, MoveJournal.COPYING);
                        copy.catchUp(run, src, dst, dstSql, scope, keys, 1, unverified);
                        continue;
                    }
                    pauseStart = Instant.now();
                    copy.catchUp(run, src, dst, dstSql, scope, keys, Integer.MAX_VALUE, unverified);
                    long caughtUp = System.nanoTime();
                    Map<RowCopier, List<Object>> mismatches =
                            copy.verify(run, src, srcSql, dst, dstSql, unverified);
                    LOG.fine(() -> "Move " + id + ": frozen catch-up " + Duration.between(run.started, Instant.now())
                            + ", verified " + unverified.size() + " units and rows in "
                            + (System.nanoTime() - caughtUp) / 1_000_000 + " ms");
                    if (mismatches.isEmpty()) {
                        verified = true;
                    } else {
                        LOG.warning("Move " + id + ": verification found " + mismatches.values().stream()
                                .mapToInt(List::size).sum() + " units differing between shard '" + source + "' and "
                                + "the copy on shard '" + target + "'; the source stays authoritative, they are "
                                + "copied again (attempt " + attempt + ")");
                        record(run, MoveJournal.COPYING);
                        unfreeze(src, run, scope);
                        pauseStart = null;
                        copy.recopy(run, src, dst, dstSql, mismatches, unverified);
                    }
                }
                if (!verified) {
                    unfreeze(src, run, scope);
                    record(run, MoveJournal.COPYING);
                    throw new IllegalStateException(scope.describe() + " could not be frozen "
                            + "and verified in " + run.options.freezeAttempts() + " attempts (long transactions on "
                            + "them, or rows that differ after copying); the source stays authoritative");
                }
            }
            try (Connection dst = connect(target)) {
                LocalTransaction.run(dst, run.shardToken, () -> scope.beforeSwitch(dst,
                        ShardTimeouts.seconds(run.options.freezeTimeout().toMillis())));
            } catch (SQLException e) {
                // not switched: the source takes writes again, and a resume copies what they change
                try (Connection src = connect(source)) {
                    unfreeze(src, run, scope);
                }
                record(run, MoveJournal.COPYING);
                throw e;
            }
            run.step("before-switch");
            run.mapVersion = scope.switchOver(journal, id, run.batch, target, run.token, run.lease());
            state = MoveJournal.SWITCHED;
            directory.refresh();
            run.step("after-switch");
        }
        if (state.equals(MoveJournal.SWITCHED)) {
            markSwitched(run, scope);
            promote(run, target, scope);
            if (pauseStart != null) { // writes go to the target from here on: the source's delete is not in the pause
                Duration pause = Duration.between(pauseStart, Instant.now());
                run.pauses.add(pause);
                metrics.moveWritePause(target, pause.toNanos());
            }
            record(run, MoveJournal.PROMOTED);
            state = MoveJournal.PROMOTED;
            run.step("after-promote");
        }
        if (state.equals(MoveJournal.PROMOTED)) {
            release(run, scope, keys, run.shardToken);
            record(run, MoveJournal.RELEASED);
            run.step("after-release");
        }
        journal.progress(id, run.token, run.unitsMoved, run.rowsMoved);
        run.progress();
    }

    /** Records that the run's batch enters {@code state}, if the run still holds its operation. */
    private void record(MoveRun run, String state) {
        run.ensureHeld();
        journal.state(run.move.id(), run.batch, state, run.token, run.lease());
    }

    /** Warns, once per source, of the tables the move can only scan whole to find a unit's rows; returns the warnings. */
    private List<String> warnOfScans(MoveJournal.Move move, List<RowCopier> copiers, Collection<BatchScope> batches) {
        List<String> warnings = new ArrayList<>();
        Set<ShardId> sources = new TreeSet<>(Comparator.comparing(ShardId::name));
        batches.forEach(scope -> sources.add(scope.source()));
        for (ShardId source : sources) {
            List<String> unindexed;
            try (Connection src = connect(source)) {
                unindexed = LookupIndexes.missing(src, copiers);
            } catch (SQLException e) {
                LOG.fine(() -> "Move " + move.id() + ": could not read the indexes of shard '" + source + "': " + e);
                continue; // only advice: the move's own steps report a shard they cannot reach
            }
            if (!unindexed.isEmpty()) {
                String warning = "On shard '" + source + "' no index leads with the column the move finds each unit's "
                        + "rows by, in " + String.join(", ", unindexed) + ". Every chunk of the copy, the comparison "
                        + "and the release scans those tables whole, so the move slows with the square of their size. "
                        + "Fix: create an index on each of those columns (for example @Table(indexes = "
                        + "@Index(columnList = \"...\")) on the entity); PostgreSQL does not index a foreign key by "
                        + "itself";
                LOG.warning("Move " + move.id() + ": " + warning);
                warnings.add(warning);
            }
        }
        return warnings;
    }

    /**
     * Starts (or restarts) the copy of a batch: the target's staging emptied and its claims on the arriving units made,
     * the source's MOVING (writers log their units from now on; a batch interrupted while frozen is unfrozen).
     */
    private void startCopy(Connection src, Connection dst, MoveRun run, BatchScope scope) throws SQLException {
        BatchScope.MoveOptionsView options = new BatchScope.MoveOptionsView(run.options.freezeTimeout(),
                run.options.freezeAttempts(), run.shardToken);
        MoveFaults.at("start-copy");
        src.setAutoCommit(true);
        LocalTransaction.run(dst, run.shardToken, () -> {
            for (RowCopier copier : run.copiers) {
                copier.clearStaging(dst);
            }
            scope.claimTarget(dst, src, options);
        });
        scope.startSource(src, options);
    }

    /**
     * A connection to {@code shard} for the mover, in READ COMMITTED on MariaDB (the other databases' default): under
     * InnoDB's default REPEATABLE READ a delete whose condition is not on an index (a member's key column without
     * one, or a subquery) locks every row it scans, so the release held the rows of units that do not move and
     * deadlocked with their writers.
     */
    private Connection connect(ShardId shard) throws SQLException {
        Connection connection = pools.connection(shard);
        try {
            if (ShardSql.of(connection) == ShardSql.MARIADB) {
                connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * Freezes {@code buckets} on the source: an exclusive update of their ownership rows, which waits for every unit
     * of work holding their shared lock (on H2, the update commits and then the writers are drained); later units of
     * work see FROZEN and wait.
     *
     * @return false if running units of work held the rows past {@code timeout} (nothing changed)
     */
    private boolean freeze(Connection src, MoveRun run, BatchScope scope, Duration timeout) throws SQLException {
        src.setAutoCommit(false);
        try {
            run.shardToken.check(src);
            scope.freeze(src, ShardTimeouts.seconds(timeout.toMillis()));
            src.commit();
        } catch (SQLException | RuntimeException e) {
            src.rollback();
            if (e instanceof SQLException sql && isLockTimeout(sql)) {
                return false;
            }
            throw e;
        } finally {
            src.setAutoCommit(true);
        }
        if (!OwnershipFence.drainWriters(src, timeout)) {
            unfreeze(src, run, scope);
            return false;
        }
        return true;
    }

    /** Whether {@code e} is a lock wait or statement timeout (the lock holders may still be running). */
    public static boolean isLockTimeout(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.sql.SQLTimeoutException || t instanceof java.sql.SQLTransactionRollbackException) {
                return true;
            }
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                int code = sql.getErrorCode();
                // 57014 canceled (PostgreSQL query timeout), 55P03 lock not available, 40001 / 40P01 serialization
                // or deadlock, H2 50200 lock timeout and 57014, MariaDB 1205 lock wait timeout, 1969/3024 timeout
                if ("57014".equals(state) || "55P03".equals(state) || "40001".equals(state) || "40P01".equals(state)
                        || code == 50200 || code == 57014 || code == 1205 || code == 1969 || code == 3024) {
                    return true;
                }
            }
        }
        return false;
    }

    private void unfreeze(Connection src, MoveRun run, BatchScope scope) throws SQLException {
        LocalTransaction.run(src, run.shardToken, () -> scope.unfreeze(src));
    }



    /**
     * On the source, in one local transaction after the switch: the batch's claims SWITCHED under the new map version,
     * the fence's epoch raised. From its commit, work routed there is turned away as stale (its instance refreshes),
     * so no one reads the source's rows once the target takes writes. Idempotent.
     */
    private void markSwitched(MoveRun run, BatchScope scope) throws SQLException {
        run.ensureHeld();
        try (Connection src = connect(scope.source())) {
            LocalTransaction.run(src, run.shardToken, () -> {
                int mapVersion = Math.max(run.mapVersion, directory.version());
                scope.markSwitched(src, mapVersion);
                OwnershipFence.recordChange(src, mapVersion);
            });
        }
    }

    /**
     * On the source, in one local transaction: the batch's units and index entries deleted, the source's claims on them
     * and their change log deleted (for a unit moved alone: its fence row GONE), the fence's epoch raised. Runs after the promotion:
     * until it commits, a fan-out that reaches the source runs again (it finds the batch claimed by both shards, or
     * claimed under a newer map than its own). Idempotent.
     */
    private void release(MoveRun run, BatchScope scope, Map<RowCopier, Set<Object>> known, StepGuard guard)
            throws SQLException {
        run.ensureHeld();
        try (Connection src = connect(scope.source())) {
            ShardSql sql = ShardSql.of(src);
            Map<RowCopier, List<Object>> keys = new LinkedHashMap<>();
            for (RowCopier copier : run.copiers) {
                Set<Object> set = known == null ? null : known.get(copier);
                if (set == null) {
                    set = scope.keysToRelease(copier, src);
                }
                keys.put(copier, new ArrayList<>(set));
            }
            LocalTransaction.run(src, guard, () -> {
                OwnershipFence.lockEpoch(src); // a second release of the batch waits here, then deletes nothing
                boolean first = true;
                for (Map.Entry<RowCopier, List<Object>> entry : keys.entrySet()) {
                    List<Object> all = entry.getValue();
                    for (int from = 0; from < all.size(); from += 500) {
                        List<Object> part = all.subList(from, Math.min(all.size(), from + 500));
                        run.rowsMoved += entry.getKey().delete(src, sql, part);
                        run.unitsMoved += part.size();
                        if (first) {
                            MoveFaults.at("mid-delete");
                            first = false;
                        }
                    }
                }
                IndexEntryCopy.release(src, scope.entryVirtualShards());
                int mapVersion = Math.max(run.mapVersion, directory.version());
                scope.releaseClaims(src, mapVersion);
                OwnershipFence.recordChange(src, mapVersion);
            });
        }
    }

    /**
     * On the target, in one local transaction: staging into the live tables, the batch's index entries copied from the
     * source, the claims OWNED (for a unit moved alone: its fence row deleted). Idempotent.
     */
    private void promote(MoveRun run, ShardId target, BatchScope scope) throws SQLException {
        run.ensureHeld();
        Map<IndexTable, List<Object[]>> entries;
        try (Connection src = connect(scope.source())) {
            entries = IndexEntryCopy.read(src, scope.entryVirtualShards());
        }
        try (Connection dst = connect(target)) {
            IndexEntryCopy.prepare(dst, entries);
            LocalTransaction.run(dst, run.shardToken, () -> {
                OwnershipFence.lockEpoch(dst); // a second run promoting the batch waits here, then finds it promoted
                if (scope.promoted(dst)) {
                    return; // promoted before an interruption
                }
                for (RowCopier copier : run.copiers) {
                    copier.promote(dst);
                }
                IndexEntryCopy.replace(dst, scope.entryVirtualShards(), entries);
                int mapVersion = Math.max(run.mapVersion, directory.version());
                scope.promoteClaims(dst, mapVersion);
                OwnershipFence.recordChange(dst, mapVersion);
            });
        }
    }

    static String keyText(Object key) {
        return ShardKeys.text(key);
    }
}
