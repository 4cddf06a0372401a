package org.atomicshards.hibernate.internal.directory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.Topology;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
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
    private final Map<String, Map<String, Integer>> placements = new ConcurrentHashMap<>();

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
            catalog.registerShards(topology.shardIds().stream().map(ShardId::name).toList());
            return map;
        });
        catalog.placements().forEach((unit, keys) -> directory.placements.put(unit, new ConcurrentHashMap<>(keys)));
        return directory;
    }

    /**
     * Reads the latest map version from the catalog and puts it in force if it is newer than the one in memory
     * (another instance changed the map).
     *
     * @return the version in force afterwards
     * @throws org.atomicshards.hibernate.CatalogUnavailableException if the catalog cannot be reached (the map in
     *         memory stays in force)
     */
    public synchronized int refresh() {
        Optional<Catalog.StoredMap> stored = catalog.latestMap();
        if (stored.isPresent() && stored.get().version() > map.version()) {
            map = checked(stored.get());
        }
        return map.version();
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
            if (topology.find(owner).isEmpty()) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.SHARDS + "' has value '"
                        + String.join(",", topology.shardIds().stream().map(ShardId::name).toList())
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
        topology.shard(newOwner);
        MapVersion current = map;
        ShardId[] owners = current.owners().clone();
        owners[virtualShard] = newOwner;
        catalog.writeMap(current.version() + 1, names(owners), note);
        map = version(current.version() + 1, owners);
    }

    @Override
    public int version() {
        return map.version();
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
    public List<ShardId> ringMembers(String unit, List<ShardId> initial) {
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
            if (topology.find(member).isEmpty()) {
                throw new ShardConfigurationException("Setting '" + ShardingSettings.SHARDS + "' lacks shard '"
                        + member + "', a member of the consistent-hash ring of unit " + unit
                        + " recorded in the catalog. Fix: add shard '" + member + "' back with its URL");
            }
        }
        return members;
    }

    /** Reserves a block of ids (see {@link Catalog#allocateBlock}). */
    public long allocateBlock(String name, long size, long firstValue) {
        return catalog.allocateBlock(name, size, firstValue);
    }
}
