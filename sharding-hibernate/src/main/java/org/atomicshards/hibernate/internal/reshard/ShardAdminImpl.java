package org.atomicshards.hibernate.internal.reshard;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.logging.Logger;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.AdoptionReport;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveReport;
import org.atomicshards.hibernate.admin.NewShard;
import org.atomicshards.hibernate.admin.OperationStatus;
import org.atomicshards.hibernate.admin.RebalancePlan;
import org.atomicshards.hibernate.admin.ReplicaStatus;
import org.atomicshards.hibernate.admin.ShardAdded;
import org.atomicshards.hibernate.admin.ShardAdmin;
import org.atomicshards.hibernate.internal.config.Topology;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.directory.RingChange;
import org.atomicshards.hibernate.internal.metrics.ShardMetrics;
import org.atomicshards.hibernate.internal.replica.ReplicaReads;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal;
import org.atomicshards.hibernate.internal.reshard.lease.LeaseRevocation;
import org.atomicshards.hibernate.internal.reshard.move.Mover;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.atomicshards.hibernate.internal.topology.TopologyAdmin;

/**
 * {@link ShardAdmin}: adding and retiring shards is the {@link TopologyAdmin}'s; the rest plans operations as moves
 * of virtual shards, records them in the journal and runs them with the {@link Mover}. One instance per factory;
 * its id owns the operations it runs.
 */
public final class ShardAdminImpl implements ShardAdmin {

    private static final Logger LOG = Logger.getLogger("org.atomicshards.hibernate.resharding");

    private final Topology topology;
    private final CachedShardDirectory directory;
    private final MoveJournal journal;
    private final Mover mover;
    private final TopologyAdmin topologyAdmin;
    private final ShardRouterImpl router;
    private final String owner = "admin-" + UUID.randomUUID();
    private final ShardMetrics metrics;
    private final LeaseRevocation revocation;
    /** The journal's count of ended operations at the last look for their arms that reached every shard. */
    private volatile long endedAtLastLook = -1;

    private final ReplicaReads replicas;

    public ShardAdminImpl(Topology topology, ShardPools pools, CachedShardDirectory directory, ShardRouterImpl router,
                          OwnershipFence fence, Catalog catalog, TopologyAdmin topologyAdmin, ShardMetrics metrics,
                          LeaseRevocation revocation, ReplicaReads replicas) {
        this.replicas = replicas;
        this.topology = topology;
        this.topologyAdmin = topologyAdmin;
        this.router = router;
        this.directory = directory;
        this.journal = new MoveJournal(catalog);
        this.metrics = metrics;
        this.revocation = revocation;
        this.mover = new Mover(pools, directory, router, fence, journal, owner, metrics, revocation);
    }

    @Override
    public ShardAdded addShard(NewShard shard) {
        return topologyAdmin.addShard(shard);
    }

    @Override
    public void removeShard(ShardId shard) {
        topologyAdmin.removeShard(shard);
    }

    @Override
    public AdoptionReport adopt(ShardId shard, boolean dryRun) {
        return topologyAdmin.adopt(shard, dryRun);
    }

    @Override
    public MoveReport move(Set<Integer> virtualShards, ShardId target, MoveOptions options) {
        return move("MOVE", virtualShards, target, options);
    }

    private MoveReport move(String kind, Set<Integer> virtualShards, ShardId target, MoveOptions options) {
        if (virtualShards == null || virtualShards.isEmpty()) {
            throw new IllegalArgumentException("No virtual shard to move. Fix: pass at least one virtual shard number");
        }
        if (topology.find(target).isEmpty()) {
            throw new IllegalArgumentException("Unknown target shard '" + target + "'; the configured shards are "
                    + topology.shardIds() + ". Fix: configure it (atomicshards.shards) first");
        }
        directory.refresh();
        int count = directory.virtualShards();
        Map<ShardId, List<Integer>> bySource = new TreeMap<>(Comparator.comparing(ShardId::name));
        for (int bucket : new TreeSet<>(virtualShards)) {
            if (bucket < 0 || bucket >= count) {
                throw new IllegalArgumentException("Virtual shard " + bucket + " does not exist: there are " + count
                        + " (0 to " + (count - 1) + ")");
            }
            ShardId source = directory.shardOf(bucket);
            if (!source.equals(target)) {
                bySource.computeIfAbsent(source, s -> new ArrayList<>()).add(bucket);
            }
        }
        String id = UUID.randomUUID().toString();
        Instant lease = Instant.now().plus(options.lease());
        if (bySource.isEmpty()) {
            return new MoveReport(id, Set.copyOf(virtualShards), target, 0, 0, Duration.ZERO, List.of(),
                    directory.version());
        }
        List<MoveJournal.Bucket> buckets = new ArrayList<>();
        int batch = 0;
        for (Map.Entry<ShardId, List<Integer>> entry : bySource.entrySet()) {
            List<Integer> list = entry.getValue();
            for (int from = 0; from < list.size(); from += options.virtualShardsPerBatch()) {
                for (int bucket : list.subList(from, Math.min(list.size(), from + options.virtualShardsPerBatch()))) {
                    buckets.add(new MoveJournal.Bucket(bucket, entry.getKey(), batch));
                }
                batch++;
            }
        }
        String text = Ranges.of(buckets.stream().map(MoveJournal.Bucket::bucket).toList());
        MoveJournal.Move move = new MoveJournal.Move(id, kind, target,
                text.length() > 4000 ? text.substring(0, 3990) + "..." : text, MoveJournal.PLANNED, 0, mover.newToken(), lease,
                null, 0, 0, Instant.now(), null);
        mover.copiers(); // refuses a model it cannot copy before anything is recorded
        journal.create(move, buckets);
        return mover.run(move, options);
    }

    @Override
    public MoveReport moveUnit(Class<?> root, Object key, ShardId target, MoveOptions options) {
        if (root == null || key == null || target == null || options == null) {
            throw new IllegalArgumentException("moveUnit needs a unit root class, a key, a target shard and options "
                    + "(MoveOptions.defaults()); got root " + root + ", key " + key + ", target " + target);
        }
        requireShard(target);
        UnitRoutingImpl unit = rootUnit(root);
        var policy = unit.placement().policy();
        if (!policy.recordsPlacements()) {
            String instead = policy.usesVirtualShards()
                    ? "its units move with their virtual shard: move virtual shard "
                            + unit.placement().virtualShardOf(unit.checkKey(key)) + " with ShardAdmin.move(Set.of("
                            + unit.placement().virtualShardOf(unit.checkKey(key)) + "), target), which moves every "
                            + "unit on it"
                    : "its units move when its ring's members change, not one by one";
            throw new IllegalArgumentException("Cannot move one unit of " + root.getSimpleName() + ": its policy '"
                    + policy.name() + "' computes the shard from the key, so " + instead + ". moveUnit is for "
                    + "units whose placement is recorded (policies 'lookup' and 'round_robin')");
        }
        Object checked = unit.checkKey(key);
        String keyText = ShardKeys.text(checked);
        directory.refresh();
        directory.forgetPlacement(unit.unitName(), keyText); // read the catalog's placement, not a cached one
        Integer placed = directory.placement(unit.unitName(), keyText);
        if (placed == null) {
            throw new IllegalArgumentException("Unit " + root.getSimpleName() + " has no unit with key " + key
                    + ": the key was never placed. Fix: pass the key of an existing unit (place a new one on the "
                    + "shard directly with ShardedSessionFactory.place)");
        }
        ShardId source = directory.shardOf(placed);
        String id = UUID.randomUUID().toString();
        if (source.equals(target)) {
            return new MoveReport(id, Set.of(placed), target, 0, 0, Duration.ZERO, List.of(), directory.version());
        }
        List<Integer> targetBuckets = directory.virtualShardsOf(target);
        if (targetBuckets.isEmpty()) {
            throw new IllegalArgumentException("Shard '" + target + "' owns no virtual shard, so no unit can be "
                    + "placed on it. Fix: move virtual shards to it first (ShardAdmin.move)");
        }
        MoveJournal.UnitMove moving = new MoveJournal.UnitMove(unit.unitName(), keyText, placed, source,
                targetBuckets.get(0));
        MoveJournal.Move move = new MoveJournal.Move(id, MoveJournal.MOVE_UNIT, target, moving.toString(),
                MoveJournal.PLANNED, 0, mover.newToken(), Instant.now().plus(options.lease()), null, 0, 0, Instant.now(), moving);
        mover.copiers(); // refuses a model it cannot copy before anything is recorded
        journal.create(move, List.of(new MoveJournal.Bucket(placed, source, 0),
                new MoveJournal.Bucket(moving.targetBucket(), target, 0)));
        return mover.run(move, options);
    }

    @Override
    public MoveReport addRingMember(Class<?> root, ShardId shard, MoveOptions options) {
        return changeRing("addRingMember", root, shard, true, options);
    }

    @Override
    public MoveReport removeRingMember(Class<?> root, ShardId shard, MoveOptions options) {
        return changeRing("removeRingMember", root, shard, false, options);
    }

    private MoveReport changeRing(String operation, Class<?> root, ShardId shard, boolean joining,
                                  MoveOptions options) {
        if (root == null || shard == null || options == null) {
            throw new IllegalArgumentException(operation + " needs a unit root class, a shard and options "
                    + "(MoveOptions.defaults()); got root " + root + ", shard " + shard);
        }
        requireShard(shard);
        UnitRoutingImpl unit = rootUnit(root);
        if (unit.placement().policy().usesVirtualShards()) {
            throw new IllegalArgumentException("Unit " + root.getSimpleName() + " has no consistent-hash ring: its "
                    + "policy '" + unit.placement().policy().name() + "' places keys on virtual shards. Fix: move "
                    + "virtual shards " + (joining ? "to" : "off") + " shard '" + shard + "' with ShardAdmin."
                    + (joining ? "move or split" : "move or drain"));
        }
        directory.refresh();
        List<ShardId> members = unit.placement().topology().ringMembers();
        String id = UUID.randomUUID().toString();
        if (members.contains(shard) == joining) {
            return new MoveReport(id, Set.of(), shard, 0, 0, Duration.ZERO, List.of(), directory.version());
        }
        List<ShardId> others = members.stream().filter(m -> !m.equals(shard)).toList();
        if (others.isEmpty()) {
            throw new IllegalArgumentException("Shard '" + shard + "' is the last member of the consistent-hash ring "
                    + "of unit " + root.getSimpleName() + ". Fix: add another member first (addRingMember)");
        }
        RingChange ring = new RingChange(unit.unitName(), shard, others, joining);
        MoveJournal.Move move = new MoveJournal.Move(id, ring.kind(), shard, "ring of " + root.getSimpleName(),
                MoveJournal.PLANNED, 0, mover.newToken(), Instant.now().plus(options.lease()), null, 0, 0, Instant.now(), null,
                ring);
        journal.create(move, List.of());
        return mover.run(move, options);
    }

    @Override
    public List<MoveReport> resume() {
        return resume(MoveOptions.defaults());
    }

    @Override
    public List<MoveReport> resume(MoveOptions options) {
        List<MoveReport> reports = resumeUnfinished(options, false);
        disarmFinished();
        return reports;
    }

    /**
     * {@link #resume()} as {@link AutoResume} runs it at every topology refresh: the arms of ended operations are
     * looked for on the shards (one query per shard) only when an operation has ended since the last look that reached
     * every shard, not at every refresh. An arm is left behind only by an operation that ended (and stopped before its
     * disarm), so a look after its end finds it.
     *
     * @param holdingUpTrafficOnly carry on only the operations whose batch in progress holds up traffic (frozen, switched
     *                          or promoted)
     */
    List<MoveReport> resumeOnRefresh(boolean holdingUpTrafficOnly) {
        List<MoveReport> reports = resumeUnfinished(MoveOptions.defaults(), holdingUpTrafficOnly);
        long ended = journal.endedCount(); // read before the look: an operation ending during it is looked for again
        if (ended != endedAtLastLook && disarmFinished()) {
            endedAtLastLook = ended;
        }
        return reports;
    }

    private List<MoveReport> resumeUnfinished(MoveOptions options, boolean holdingUpTrafficOnly) {
        List<MoveReport> reports = new ArrayList<>();
        for (MoveJournal.Move move : journal.unfinished()) {
            if (move.holdsUpTraffic() || !holdingUpTrafficOnly) {
                mover.resume(move.id(), options).ifPresent(reports::add);
            }
        }
        return reports;
    }

    /**
     * Takes back the arms of operations that finished without disarming their shards (stopped between their end and
     * their disarm), so those shards lease connections again. A shard that cannot be reached keeps its arms (it is
     * fenced, as safe as before) until the next resume.
     *
     * @return whether every shard was reached
     */
    private boolean disarmFinished() {
        boolean everyShard = true;
        for (ShardId shard : topology.shardIds()) {
            try {
                revocation.disarmFinished(shard, () -> {
                    Set<String> unfinished = new HashSet<>();
                    journal.unfinished().forEach(move -> unfinished.add(move.id()));
                    return unfinished;
                }, directory::refresh);
            } catch (SQLException | RuntimeException e) {
                everyShard = false;
                LOG.warning("Shard '" + shard + "': could not take back the arms of finished operations ("
                        + e.getMessage() + "); it stays fenced until the next resume");
            }
        }
        return everyShard;
    }

    private UnitRoutingImpl rootUnit(Class<?> root) {
        UnitRoutingImpl unit = router.unitOf(root);
        if (unit == null || !unit.root().equals(root)) {
            throw new IllegalArgumentException(root.getName() + " is not the root of an atomic unit"
                    + (unit == null ? "" : " (it belongs to unit " + unit.root().getName() + ")")
                    + ". Fix: pass the unit's root entity class");
        }
        return unit;
    }

    @Override
    public List<OperationStatus> operations() {
        return journal.unfinished().stream().map(m -> new OperationStatus(m.id(), m.kind(), m.target(), m.buckets(),
                m.state(), m.batch(), m.owner(), m.leaseUntil(), m.error())).toList();
    }

    /**
     * Releases on their sources the batches that unfinished operations promoted and have not released yet, whether a
     * run holds those operations or not ({@link Mover#releasePromoted}): fan-outs find such a batch claimed by two
     * shards and cannot answer until it is released.
     *
     * @return whether any batch was released
     */
    public boolean releasePromotedBatches() {
        boolean released = false;
        for (MoveJournal.Move move : journal.unfinished()) {
            if (MoveJournal.PROMOTED.equals(move.state())) {
                try {
                    mover.releasePromoted(move);
                    released = true;
                } catch (SQLException | RuntimeException e) {
                    LOG.warning("Operation " + move.id() + ": could not release its promoted batch " + move.batch()
                            + " (" + e.getMessage() + "); its run or a resume will");
                }
            }
        }
        return released;
    }

    /** The unfinished operations no run holds: stopped (no owner), or whose owner's lease lapsed (its process died). */
    public List<OperationStatus> stoppedOperations() {
        Instant now = Instant.now();
        return operations().stream().filter(op -> op.owner() == null || op.leaseUntil() == null
                || op.leaseUntil().isBefore(now)).toList();
    }

    /**
     * Gives the meters the operations the journal records as unfinished (those of other instances and of the
     * command-line tool included); called at each topology refresh when meters are on.
     *
     * @throws org.atomicshards.hibernate.CatalogException if the catalog cannot be read
     */
    public void meterUnfinishedOperations() {
        List<MoveJournal.Move> moves = journal.unfinished();
        metrics.unfinishedOperations(moves.size(), moves.stream().mapToLong(MoveJournal.Move::units).sum(),
                moves.stream().mapToLong(MoveJournal.Move::rows).sum());
    }

    @Override
    public MoveReport split(ShardId source, ShardId target, MoveOptions options) {
        requireShard(source);
        directory.refresh();
        List<Integer> owned = directory.virtualShardsOf(source);
        if (owned.size() < 2) {
            throw new IllegalArgumentException("Shard '" + source + "' owns " + owned.size() + " virtual shard(s); "
                    + "splitting needs at least 2");
        }
        return move("SPLIT", Set.copyOf(owned.subList(owned.size() / 2, owned.size())), target, options);
    }

    @Override
    public MoveReport merge(ShardId from, ShardId into, MoveOptions options) {
        requireShard(from);
        if (from.equals(into)) {
            throw new IllegalArgumentException("Cannot merge shard '" + from + "' into itself");
        }
        directory.refresh();
        List<Integer> owned = directory.virtualShardsOf(from);
        if (owned.isEmpty()) {
            return new MoveReport(UUID.randomUUID().toString(), Set.of(), into, 0, 0, Duration.ZERO, List.of(),
                    directory.version());
        }
        return move("MERGE", Set.copyOf(owned), into, options);
    }

    @Override
    public List<MoveReport> drain(ShardId shard, MoveOptions options) {
        requireShard(shard);
        directory.refresh();
        List<ShardId> others = topology.shardIds().stream().filter(s -> !s.equals(shard)).toList();
        if (others.isEmpty()) {
            throw new IllegalArgumentException("Cannot drain shard '" + shard + "': it is the only shard");
        }
        Map<ShardId, Integer> counts = new LinkedHashMap<>();
        others.forEach(s -> counts.put(s, directory.virtualShardsOf(s).size()));
        Map<ShardId, Set<Integer>> plan = new LinkedHashMap<>();
        for (int bucket : directory.virtualShardsOf(shard)) {
            ShardId least = counts.entrySet().stream().min(Map.Entry.comparingByValue()).orElseThrow().getKey();
            counts.merge(least, 1, Integer::sum);
            plan.computeIfAbsent(least, s -> new TreeSet<>()).add(bucket);
        }
        List<MoveReport> reports = new ArrayList<>();
        for (Map.Entry<ShardId, Set<Integer>> entry : plan.entrySet()) {
            reports.add(move("DRAIN", entry.getValue(), entry.getKey(), options));
        }
        return reports;
    }

    @Override
    public RebalancePlan rebalance(boolean dryRun, MoveOptions options) {
        directory.refresh();
        List<ShardId> shards = topology.shardIds();
        int total = directory.virtualShards();
        Map<ShardId, List<Integer>> owned = new LinkedHashMap<>();
        Map<ShardId, Integer> before = new LinkedHashMap<>();
        for (ShardId shard : shards) {
            owned.put(shard, new ArrayList<>(directory.virtualShardsOf(shard)));
            before.put(shard, directory.virtualShardsOf(shard).size());
        }
        Map<ShardId, Integer> goal = new LinkedHashMap<>();
        for (int i = 0; i < shards.size(); i++) {
            goal.put(shards.get(i), total / shards.size() + (i < total % shards.size() ? 1 : 0));
        }
        Map<String, RebalancePlan.PlannedMove> moves = new LinkedHashMap<>();
        for (ShardId donor : shards) {
            List<Integer> list = owned.get(donor);
            while (list.size() > goal.get(donor)) {
                ShardId taker = shards.stream().filter(s -> owned.get(s).size() < goal.get(s)).findFirst().orElse(null);
                if (taker == null) {
                    break;
                }
                int bucket = list.remove(list.size() - 1);
                owned.get(taker).add(bucket);
                moves.computeIfAbsent(donor + ">" + taker,
                        k -> new RebalancePlan.PlannedMove(donor, taker, new TreeSet<>())).virtualShards().add(bucket);
            }
        }
        Map<ShardId, Integer> after = new LinkedHashMap<>();
        owned.forEach((s, list) -> after.put(s, list.size()));
        List<RebalancePlan.PlannedMove> planned = moves.values().stream()
                .map(m -> new RebalancePlan.PlannedMove(m.source(), m.target(), Set.copyOf(m.virtualShards())))
                .toList();
        RebalancePlan plan = new RebalancePlan(planned, before, after);
        if (!dryRun) {
            for (RebalancePlan.PlannedMove move : planned) {
                move("REBALANCE", move.virtualShards(), move.target(), options);
            }
        }
        return plan;
    }

    private void requireShard(ShardId shard) {
        if (topology.find(shard).isEmpty()) {
            throw new IllegalArgumentException("Unknown shard '" + shard + "'; the configured shards are "
                    + topology.shardIds());
        }
    }

    @Override
    public List<ReplicaStatus> replicas() {
        return replicas.check();
    }
}
