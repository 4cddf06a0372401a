package org.atomicshards.hibernate.internal.directory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.ShardSpec;
import org.atomicshards.hibernate.internal.config.Topology;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.spi.RingTransition;
import org.atomicshards.hibernate.spi.ShardDirectory;

/**
 * The shard directory: loaded from the {@link Catalog} at boot and answered from memory afterwards. The map in force
 * is an immutable array swapped atomically on a new version; placements live in concurrent maps, written through to
 * the catalog before they become visible.
 */
public final class CachedShardDirectory implements ShardDirectory {

    private final Catalog catalog;
    private final Topology topology;
    private volatile MapVersion map;
    /** The map version whose rings and placements are in force too (published after them). */
    private volatile int settledVersion;
    private final Map<String, Map<String, Integer>> placements = new ConcurrentHashMap<>();
    /** The members of each consistent-hash unit's ring; a list is replaced (never changed) when the ring changes. */
    private final Map<String, List<ShardId>> rings = new ConcurrentHashMap<>();
    private final Map<String, RingTransition> ringTransitions = new ConcurrentHashMap<>();
    /** Whether {@link #ringTransitions} holds any: the routing path skips the map lookup when none does. */
    private volatile boolean ringsChanging;
    private final AtomicInteger ringGeneration = new AtomicInteger();
    private volatile DataShards dataShards;
    private volatile List<ShardSpec> addedAtBoot = List.of();

    /** The shards holding rows, computed for one map version, ring generation and topology snapshot. */
    private record DataShards(MapVersion map, int rings, List<ShardId> topology, List<ShardId> shards) {
    }

    /**
     * What one {@link #refresh()} changed.
     *
     * @param mapVersion the map version in force afterwards
     * @param added shards another instance added, now active here
     * @param retired shards retired in the catalog, now gone from this instance's topology (their pools are the
     *        caller's to close)
     * @param problems what could not be taken over (e.g. a shard without a URL this instance can use), for the log
     */
    public record Refresh(int mapVersion, List<ShardId> added, List<ShardId> retired, List<String> problems) {
    }

    private record MapVersion(int version, ShardId[] owners, Map<ShardId, List<Integer>> byShard) {
    }

    private CachedShardDirectory(Catalog catalog, Topology topology) {
        this.catalog = catalog;
        this.topology = topology;
    }

    /**
     * Opens the directory. Under the catalog's lock (so that instances booting together take turns): creates or
     * upgrades the catalog's tables, or validates them; stores the topology's initial map as version 1 on a new
     * catalog, or checks the stored map (possibly just written by another instance) against the topology; records
     * the topology's shards in the shard registry. Then loads the placements.
     *
     * @throws ShardConfigurationException if the stored map contradicts the topology
     * @throws org.atomicshards.hibernate.CatalogException if the catalog is unreachable, its schema invalid, or
     *         another instance holds its lock for longer than the lock timeout
     */
    public static CachedShardDirectory open(Catalog catalog, Topology topology) {
        CachedShardDirectory directory = new CachedShardDirectory(catalog, topology);
        directory.map = catalog.exclusively("initialise the shard directory", () -> {
            catalog.prepareSchema();
            directory.addedAtBoot = directory.takeOverRegisteredShards(catalog.shardRecords());
            Optional<Catalog.StoredMap> stored = catalog.latestMap();
            MapVersion map;
            if (stored.isEmpty()) {
                ShardId[] initial = topology.initialMap();
                catalog.writeMap(1, names(initial), topology.hasExplicitMap()
                        ? "initial map from " + ShardingSettings.VIRTUAL_SHARD_MAP : "initial even split");
                map = version(1, initial);
            } else {
                map = directory.checked(stored.get());
            }
            Map<String, String> urls = new LinkedHashMap<>();
            topology.configuredShardIds().forEach(id -> urls.put(id.name(), topology.shard(id).url()));
            catalog.registerShards(urls);
            return map;
        });
        catalog.placements().forEach((unit, keys) -> directory.placements.put(unit, new ConcurrentHashMap<>(keys)));
        directory.settledVersion = directory.map.version();
        return directory;
    }

    /**
     * At boot: checks the configured shards against the shard registry and makes the shards added at run time (by
     * any instance, before this boot) part of the topology.
     *
     * @return the shards taken over from the catalog
     * @throws ShardConfigurationException if the configuration lists a retired shard, or a shard added at run time
     *         has no URL this instance can use
     */
    private List<ShardSpec> takeOverRegisteredShards(Map<String, Catalog.ShardRecord> records) {
        for (ShardId configured : topology.configuredShardIds()) {
            Catalog.ShardRecord record = records.get(configured.name());
            if (record != null && "RETIRED".equals(record.status())) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.SHARDS + "' lists shard '"
                        + configured + "' but the catalog's shard registry (as_shard) records it RETIRED: it was "
                        + "removed and owns nothing. Fix: remove '" + configured + "' from " + ShardingSettings.SHARDS
                        + "; to use its database again, add it under a new id (ShardAdmin.addShard)");
            }
        }
        List<ShardSpec> added = new ArrayList<>();
        for (Catalog.ShardRecord record : records.values()) {
            ShardId id = ShardId.of(record.shardId());
            if (!record.addedAtRunTime() || "RETIRED".equals(record.status()) || topology.find(id).isPresent()) {
                continue;
            }
            ShardSpec spec = topology.runTimeShard(id, record.url()).orElseThrow(() -> new ShardConfigurationException(
                    "The catalog's shard registry (as_shard) records shard '" + id + "', added at run time, without "
                    + "a URL, and this instance's configuration has none either. Fix: set "
                    + ShardingSettings.SHARD_PREFIX + id + ".url (with its .user and .password)"));
            topology.stage(spec);
            topology.activate(id);
            added.add(spec);
        }
        return List.copyOf(added);
    }

    /** The shards added at run time that this instance took over from the catalog at boot. */
    public List<ShardSpec> shardsTakenOverAtBoot() {
        return addedAtBoot;
    }

    /**
     * Brings this instance up to date with the catalog: shards another instance added become active (their
     * connection settings from {@link Topology#runTimeShard}), retired shards leave the topology, a newer map version
     * is put in force, and changed consistent-hash rings are rebuilt. A problem with one shard is reported in the
     * result and does not stop the rest.
     *
     * @throws org.atomicshards.hibernate.CatalogUnavailableException if the catalog cannot be reached (what is in
     *         memory stays in force)
     */
    public synchronized Refresh refreshTopology() {
        List<String> problems = new ArrayList<>();
        List<ShardId> retired = new ArrayList<>();
        Map<String, Catalog.ShardRecord> records = catalog.shardRecords();
        List<ShardId> added = takeOverAddedShards(records, problems);
        Optional<Catalog.StoredMap> stored = catalog.latestMap();
        problems.addAll(reloadRings()); // before the map version that may have switched ring keys is in force
        if (stored.isPresent() && stored.get().version() > map.version()) {
            try {
                map = checked(stored.get());
                reloadPlacements();
            } catch (ShardConfigurationException e) {
                problems.add(e.getMessage());
            }
        }
        Set<ShardId> owning = new HashSet<>(map.byShard().keySet());
        rings.values().forEach(owning::addAll);
        for (Catalog.ShardRecord record : records.values()) {
            ShardId id = ShardId.of(record.shardId());
            if ("RETIRED".equals(record.status()) && topology.isActive(id) && !owning.contains(id)) {
                topology.retire(id);
                retired.add(id);
            }
        }
        settledVersion = map.version();
        return new Refresh(map.version(), List.copyOf(added), List.copyOf(retired), List.copyOf(problems));
    }

    /** Makes the shards another instance added at run time, and that are not retired, active here. */
    private List<ShardId> takeOverAddedShards(Map<String, Catalog.ShardRecord> records, List<String> problems) {
        List<ShardId> added = new ArrayList<>();
        for (Catalog.ShardRecord record : records.values()) {
            ShardId id = ShardId.of(record.shardId());
            if ("RETIRED".equals(record.status())) {
                continue;
            }
            if (topology.find(id).isEmpty() && record.addedAtRunTime()) {
                Optional<ShardSpec> spec = topology.runTimeShard(id, record.url());
                if (spec.isEmpty()) {
                    problems.add("shard '" + id + "' was added at run time without a URL and this instance has "
                            + "no " + ShardingSettings.SHARD_PREFIX + id + ".url");
                    continue;
                }
                topology.stage(spec.get());
                topology.activate(id);
                added.add(id);
            }
        }
        return added;
    }

    /**
     * Reads the latest map version from the catalog and puts it in force if it is newer than the one in memory
     * (another instance changed the map). If the new map gives virtual shards to a shard another instance added at
     * run time and this instance has not taken over yet (its topology refresh runs only every
     * {@code atomicshards.catalog.refresh_interval_ms}), the added shards are taken over first, as
     * {@link #refreshTopology()} does.
     *
     * @return the version in force afterwards
     * @throws org.atomicshards.hibernate.CatalogUnavailableException if the catalog cannot be reached (the map in
     *         memory stays in force)
     * @throws ShardConfigurationException if the new map names a shard this instance cannot take over (the map in
     *         memory stays in force)
     */
    public synchronized int refresh() {
        Optional<Catalog.StoredMap> stored = catalog.latestMap();
        if (stored.isPresent() && stored.get().version() > map.version()) {
            if (Arrays.stream(stored.get().owners()).filter(Objects::nonNull)
                    .anyMatch(owner -> !topology.isActive(ShardId.of(owner)))) {
                List<String> problems = new ArrayList<>();
                takeOverAddedShards(catalog.shardRecords(), problems);
                if (!problems.isEmpty()) {
                    throw new ShardConfigurationException("The catalog's map version " + stored.get().version()
                            + " gives virtual shards to shards this instance cannot take over: "
                            + String.join("; ", problems) + ". Fix: set " + ShardingSettings.SHARD_PREFIX
                            + "<id>.url (with its .user and .password) on this instance");
                }
            }
            List<String> ringProblems = reloadRings();
            if (!ringProblems.isEmpty()) {
                throw new ShardConfigurationException("This instance cannot put the catalog's map version "
                        + stored.get().version() + " in force: " + String.join("; ", ringProblems) + ". Fix: set " + ShardingSettings.SHARD_PREFIX
                        + "<id>.url (with its .user and .password) on this instance");
            }
            map = checked(stored.get());
            reloadPlacements();
        }
        settledVersion = map.version();
        return map.version();
    }

    /**
     * Re-reads the ring changes in progress, then the members of every consistent-hash ring in use here, and puts them
     * in force: members first, changes after, so that a router reading a unit's change before its members (as
     * {@link org.atomicshards.hibernate.spi.UnitTopology#ringTransition} asks) never pairs a finished change's
     * absence with the members from before it. Publish a map version only after this: a ring batch switches under a
     * new map version, and the ring fence trusts a router whose map is at least that version.
     *
     * @return the problems found (members or new members this instance cannot reach); those rings stay as they were
     */
    private List<String> reloadRings() {
        if (rings.isEmpty()) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        Map<String, RingChange.Progress> changes = catalog.ringChanges();
        for (String unit : List.copyOf(rings.keySet())) {
            List<ShardId> members = catalog.ringMembers(unit).stream().map(ShardId::of).toList();
            RingChange.Progress change = changes.get(unit);
            List<ShardId> involved = new ArrayList<>(members);
            if (change != null) {
                involved.add(change.change().member());
            }
            if (involved.stream().anyMatch(m -> !topology.isActive(m))) {
                takeOverAddedShards(catalog.shardRecords(), problems);
            }
            List<ShardId> unknown = involved.stream().filter(m -> !topology.isActive(m)).toList();
            if (!unknown.isEmpty()) {
                problems.add("the consistent-hash ring of unit " + unit + " has members " + unknown
                        + " that this instance cannot reach");
                continue;
            }
            if (!members.isEmpty() && !members.equals(rings.get(unit))) {
                rings.put(unit, members);
                ringGeneration.incrementAndGet();
            }
            putTransition(unit, change);
        }
        return problems;
    }

    private void putTransition(String unit, RingChange.Progress change) {
        if (change == null) {
            if (ringTransitions.remove(unit) != null) {
                ringsChanging = !ringTransitions.isEmpty();
                ringGeneration.incrementAndGet();
            }
            return;
        }
        RingTransition transition = new RingTransition(change.change().membersAfter(), change.switched());
        if (!transition.equals(ringTransitions.get(unit))) {
            ringTransitions.put(unit, transition);
            ringsChanging = true;
            ringGeneration.incrementAndGet();
        }
    }

    /** The change of {@code unit}'s consistent-hash ring under way, as of the last refresh; null if none. */
    public RingTransition ringTransition(String unit) {
        return ringsChanging ? ringTransitions.get(unit) : null;
    }

    /**
     * Re-reads every placement with a newer map: a unit moved alone ({@code ShardAdmin.moveUnit}) changes its recorded
     * virtual shard and writes a map version, so placements cached by an instance follow at its next refresh.
     */
    private void reloadPlacements() {
        catalog.placements().forEach((unit, keys) -> placements.put(unit, new ConcurrentHashMap<>(keys)));
    }

    /** The catalog behind this directory (for the topology's administrative operations). */
    public Catalog catalog() {
        return catalog;
    }

    private MapVersion checked(Catalog.StoredMap stored) {
        String[] names = stored.owners();
        if (names.length != topology.virtualShards()) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.VIRTUAL_SHARDS + "' has value '"
                    + topology.virtualShards() + "' but the catalog's map (version " + stored.version() + ") has "
                    + names.length + " virtual shards; changing the count would move every key. Fix: set "
                    + ShardingSettings.VIRTUAL_SHARDS + "=" + names.length + " (or point "
                    + ShardingSettings.CATALOG_URL + " at a new catalog for a new deployment)");
        }
        ShardId[] owners = new ShardId[names.length];
        for (int v = 0; v < names.length; v++) {
            if (names[v] == null) {
                throw new ShardConfigurationException("The catalog's map version " + stored.version()
                        + " has no owner for virtual shard " + v + ". Fix: repair the catalog's as_virtual_shard table");
            }
            ShardId owner = ShardId.of(names[v]);
            if (!topology.isActive(owner)) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.SHARDS + "' has value '"
                        + String.join(",", topology.configuredShardIds().stream().map(ShardId::name).toList())
                        + "' but the catalog's map (version " + stored.version() + ") assigns virtual shard " + v
                        + " to shard '" + owner + "', which would leave its keys without a database. Fix: add shard '"
                        + owner + "' back to " + ShardingSettings.SHARDS + " with its URL");
            }
            owners[v] = owner;
        }
        if (topology.hasExplicitMap() && !Arrays.equals(owners, topology.initialMap())) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.VIRTUAL_SHARD_MAP
                    + "' differs from the map in force in the catalog (version " + stored.version() + "). The map is "
                    + "only read from the settings for a new catalog; changes go through the directory's versioned "
                    + "operations. Fix: remove " + ShardingSettings.VIRTUAL_SHARD_MAP + " or make it match the catalog");
        }
        return version(stored.version(), owners);
    }

    private static MapVersion version(int version, ShardId[] owners) {
        Map<ShardId, List<Integer>> byShard = new HashMap<>();
        for (int v = 0; v < owners.length; v++) {
            byShard.computeIfAbsent(owners[v], s -> new ArrayList<>()).add(v);
        }
        byShard.replaceAll((s, list) -> List.copyOf(list));
        return new MapVersion(version, owners, Map.copyOf(byShard));
    }

    private static String[] names(ShardId[] owners) {
        return Arrays.stream(owners).map(ShardId::name).toArray(String[]::new);
    }

    /**
     * Moves {@code virtualShard} to {@code newOwner} as a new map version, written to the catalog before it takes
     * effect. Moving the rows is the caller's job (resharding); this only flips the mapping.
     */
    public synchronized void assign(int virtualShard, ShardId newOwner, String note) {
        if (!topology.isActive(newOwner)) {
            topology.shard(newOwner); // unknown: names the topology
            throw new org.atomicshards.hibernate.UnknownShardException("Shard '" + newOwner + "' is not active in the "
                    + "topology " + topology.shardIds() + " (it is still being added). Fix: wait for addShard to return");
        }
        MapVersion current = map;
        ShardId[] owners = current.owners().clone();
        owners[virtualShard] = newOwner;
        catalog.writeMap(current.version() + 1, names(owners), note);
        map = version(current.version() + 1, owners);
        settledVersion = map.version();
    }

    @Override
    public int version() {
        return map.version();
    }

    /**
     * The map version in force here together with the consistent-hash rings and unit placements that go with it:
     * {@link #version()} is published before those are reloaded, this after. A write lease trusts a router whose
     * settled version is at least the shard's lease version.
     */
    public int settledVersion() {
        return settledVersion;
    }

    @Override
    public int virtualShards() {
        return map.owners().length;
    }

    @Override
    public ShardId shardOf(int virtualShard) {
        return map.owners()[virtualShard];
    }

    @Override
    public List<Integer> virtualShardsOf(ShardId shard) {
        return map.byShard().getOrDefault(shard, List.of());
    }

    /** The shards owning at least one virtual shard, in topology order. */
    public List<ShardId> owningShards() {
        MapVersion current = map;
        return topology.shardIds().stream().filter(current.byShard()::containsKey).toList();
    }

    /**
     * The shards that may hold rows of atomic units: the owners of virtual shards and the members of every
     * consistent-hash ring, in topology order; never empty. A shard that owns nothing (just added, or drained) is
     * not among them, so fan-outs neither query it nor fail when it cannot be reached.
     */
    public List<ShardId> dataShards() {
        MapVersion current = map;
        int generation = ringGeneration.get();
        List<ShardId> order = topology.shardIds();
        DataShards cached = dataShards;
        if (cached != null && cached.map() == current && cached.rings() == generation && cached.topology() == order) {
            return cached.shards();
        }
        Set<ShardId> holding = new HashSet<>(current.byShard().keySet());
        rings.values().forEach(holding::addAll);
        ringTransitions.values().forEach(t -> holding.addAll(t.members()));
        List<ShardId> shards = order.stream().filter(holding::contains).toList();
        dataShards = new DataShards(current, generation, order, shards);
        return shards;
    }

    /**
     * Retires {@code shard} in the catalog if it owns nothing there (not only in this instance's memory): no virtual
     * shard in the latest map, no placement of a lookup / round-robin unit on one, no place in a consistent-hash
     * ring. One catalog transaction, safe against a concurrent map or ring write naming the shard.
     *
     * @return what it owns; empty if it was retired
     */
    public Ownership retireIfOwnsNothing(ShardId shard) {
        Catalog.Owned owned = catalog.retireIfOwnsNothing(shard.name());
        return new Ownership(owned.mapVersion(), owned.virtualShards(), owned.placements(), owned.ringUnits());
    }

    /**
     * What one shard owns.
     *
     * @param mapVersion the map version read
     * @param virtualShards its virtual shards, ascending
     * @param placements the lookup / round-robin units placed on them
     * @param ringUnits the consistent-hash units whose ring it is a member of
     */
    public record Ownership(int mapVersion, List<Integer> virtualShards, long placements, List<String> ringUnits) {

        /** Whether the shard owns nothing. */
        public boolean isEmpty() {
            return virtualShards.isEmpty() && placements == 0 && ringUnits.isEmpty();
        }
    }

    @Override
    public Optional<Integer> placementOf(Class<?> unitRoot, Object key) {
        return Optional.ofNullable(placement(unitRoot.getName(), ShardKeys.text(key)));
    }

    /**
     * The recorded virtual shard of a key from memory; on a miss, reads the catalog once (another instance may have
     * placed the key) and caches a hit.
     */
    public Integer placement(String unit, String keyText) {
        Map<String, Integer> unitPlacements = placements.get(unit);
        Integer cached = unitPlacements == null ? null : unitPlacements.get(keyText);
        if (cached != null) {
            return cached;
        }
        Optional<Integer> stored = catalog.placement(unit, keyText);
        stored.ifPresent(v -> placements.computeIfAbsent(unit, u -> new ConcurrentHashMap<>()).put(keyText, v));
        return stored.orElse(null);
    }

    /**
     * Drops the cached placement of one key, so the next routing reads it from the catalog: after the unit was moved
     * alone to another virtual shard (by this or another instance).
     */
    public void forgetPlacement(String unit, String keyText) {
        Map<String, Integer> unitPlacements = placements.get(unit);
        if (unitPlacements != null) {
            unitPlacements.remove(keyText);
        }
    }

    /** Records a placement in the catalog, then in memory; returns the virtual shard recorded (first writer wins). */
    public int place(String unit, String keyText, int virtualShard) {
        int recorded = catalog.place(unit, keyText, virtualShard);
        placements.computeIfAbsent(unit, u -> new ConcurrentHashMap<>()).put(keyText, recorded);
        return recorded;
    }

    /** How many placements a unit has (used to continue a round robin after a restart). */
    public int placementCount(String unit) {
        Map<String, Integer> unitPlacements = placements.get(unit);
        return unitPlacements == null ? 0 : unitPlacements.size();
    }

    /**
     * The ring members recorded for a consistent-hash unit, recording {@code initial} on first use (under the
     * catalog's lock, so instances booting together record one ring).
     */
    public synchronized List<ShardId> ringMembers(String unit, List<ShardId> initial) {
        RingChange.Progress change = catalog.ringChanges().get(unit); // before the members: see reloadRings
        List<ShardId> members = loadRingMembers(unit, initial);
        rings.put(unit, members);
        ringGeneration.incrementAndGet();
        putTransition(unit, change);
        return members;
    }

    /** A number that changes after every change of a consistent-hash ring's members in force here. */
    public int ringGeneration() {
        return ringGeneration.get();
    }

    /**
     * The ring members of a consistent-hash unit in force in this instance (as of its last refresh); the same list
     * instance until the ring changes, so a caller may cache what it built from it by identity.
     */
    public List<ShardId> currentRingMembers(String unit) {
        List<ShardId> members = rings.get(unit);
        if (members == null) {
            throw new IllegalStateException("Unit " + unit + " has no consistent-hash ring");
        }
        return members;
    }

    /**
     * Adds {@code shard} to the consistent-hash ring of {@code unit}, in the catalog, then in force here; other
     * instances take it over at their next refresh. Only the registration: the keys the new ring gives to the shard
     * are the caller's to move first.
     *
     * @return false if it was a member already
     */
    public synchronized boolean addRingMember(String unit, ShardId shard) {
        currentRingMembers(unit);
        if (!topology.isActive(shard)) {
            topology.shard(shard);
            throw new org.atomicshards.hibernate.UnknownShardException("Shard '" + shard + "' is not active yet");
        }
        boolean added = catalog.addRingMember(unit, shard.name());
        rings.put(unit, catalog.ringMembers(unit).stream().map(ShardId::of).toList());
        ringGeneration.incrementAndGet();
        return added;
    }

    /**
     * Removes {@code shard} from the consistent-hash ring of {@code unit}, in the catalog, then in force here. Only
     * the registration: the keys it held are the caller's to move first.
     *
     * @return false if it was not a member
     * @throws ShardConfigurationException if it is the ring's last member
     */
    public synchronized boolean removeRingMember(String unit, ShardId shard) {
        List<ShardId> current = currentRingMembers(unit);
        if (current.size() == 1 && current.contains(shard)) {
            throw new ShardConfigurationException("Shard '" + shard + "' is the last member of the consistent-hash "
                    + "ring of unit " + unit + ". Fix: add another member first");
        }
        boolean removed = catalog.removeRingMember(unit, shard.name());
        rings.put(unit, catalog.ringMembers(unit).stream().map(ShardId::of).toList());
        ringGeneration.incrementAndGet();
        return removed;
    }

    private List<ShardId> loadRingMembers(String unit, List<ShardId> initial) {
        List<String> stored = catalog.ringMembers(unit);
        if (stored.isEmpty()) {
            stored = catalog.exclusively("record the ring members of " + unit, () -> {
                List<String> recorded = catalog.ringMembers(unit);
                if (!recorded.isEmpty()) {
                    return recorded;
                }
                List<String> names = initial.stream().map(ShardId::name).toList();
                catalog.writeRingMembers(unit, names);
                return names;
            });
        }
        List<ShardId> members = stored.stream().map(ShardId::of).toList();
        for (ShardId member : members) {
            if (!topology.isActive(member)) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.SHARDS + "' lacks shard '"
                        + member + "', a member of the consistent-hash ring of unit " + unit
                        + " recorded in the catalog. Fix: add shard '" + member + "' back with its URL");
            }
        }
        return members;
    }

    /** Raises an id sequence to at least {@code floor} (see {@link Catalog#raiseBlockFloor}). */
    public long raiseBlockFloor(String name, long floor) {
        return catalog.raiseBlockFloor(name, floor);
    }

    /** Reserves a block of ids (see {@link Catalog#allocateBlock}). */
    public long allocateBlock(String name, long size, long firstValue) {
        return catalog.allocateBlock(name, size, firstValue);
    }
}
