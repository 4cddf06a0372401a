package org.atomicshards.hibernate.internal.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.UnknownShardException;

/**
 * The physical topology: the shards in order, the virtual shard count and the initial virtual→physical map proposed
 * by the settings (the catalog's stored map wins once it exists).
 *
 * <p>What the settings gave is validated at boot and frozen. The set of shards then changes only through the shard
 * directory: a shard added at run time ({@code ShardAdmin.addShard}, or by another instance and read from the
 * catalog) is first {@linkplain #stage staged} (its connection settings are known, its pool may open, but it is
 * not part of {@link #shardIds()}), then {@linkplain #activate activated}; a removed shard is
 * {@linkplain #retire retired}. Reads are lock-free and safe under concurrent changes: {@link #shardIds()} returns
 * an immutable snapshot.
 */
public final class Topology {

    /** Connection settings given for a shard id not listed in {@code atomicshards.shards} (a shard added later). */
    public record Credentials(String url, String user, String password, Integer poolSize) {

        @Override
        public String toString() {
            return "Credentials[" + (url == null ? "no url" : Redaction.url(url)) + (user == null ? "" : ", user=" + user) + "]";
        }
    }

    private final Map<ShardId, ShardSpec> shards = new ConcurrentHashMap<>();
    private final List<ShardId> bootShards;
    private volatile List<ShardId> order;
    private final int virtualShards;
    private final ShardId[] initialMap;
    private final boolean explicitMap;
    private final Map<ShardId, Credentials> unlisted;
    private final int defaultPoolSize;

    Topology(List<ShardSpec> specs, int virtualShards, ShardId[] initialMap, boolean explicitMap) {
        this(specs, virtualShards, initialMap, explicitMap, Map.of(),
                specs.isEmpty() ? 1 : specs.get(0).poolSize());
    }

    Topology(List<ShardSpec> specs, int virtualShards, ShardId[] initialMap, boolean explicitMap,
             Map<ShardId, Credentials> unlisted, int defaultPoolSize) {
        Map<ShardId, ShardSpec> byId = new LinkedHashMap<>();
        specs.forEach(spec -> byId.put(spec.id(), spec));
        this.shards.putAll(byId);
        this.bootShards = List.copyOf(byId.keySet());
        this.order = bootShards;
        this.virtualShards = virtualShards;
        this.initialMap = initialMap.clone();
        this.explicitMap = explicitMap;
        this.unlisted = Map.copyOf(unlisted);
        this.defaultPoolSize = defaultPoolSize;
    }

    /** A topology of just these shards (for checks over a subset). */
    public static Topology of(List<ShardSpec> specs) {
        return new Topology(specs, Math.max(1, specs.size()), new ShardId[0], false);
    }

    /** The active shards in topology order (boot order, then the order they were added); an immutable snapshot. */
    public List<ShardId> shardIds() {
        return order;
    }

    /** The shards listed in {@code atomicshards.shards}, in that order. */
    public List<ShardId> configuredShardIds() {
        return bootShards;
    }

    /**
     * The connection settings of an active or staged shard.
     *
     * @throws UnknownShardException if {@code id} is neither
     */
    public ShardSpec shard(ShardId id) {
        ShardSpec spec = shards.get(id);
        if (spec == null) {
            throw new UnknownShardException("Unknown shard '" + id + "': the topology has " + order
                    + ". Use one of those ids, or add the shard to the setting atomicshards.shards");
        }
        return spec;
    }

    /** The connection settings of an active or staged shard, or empty. */
    public Optional<ShardSpec> find(ShardId id) {
        return Optional.ofNullable(shards.get(id));
    }

    /** Whether every active shard is an embedded H2 database in this JVM ({@link ShardSpec#embeddedH2()}). */
    public boolean allEmbeddedH2() {
        return order.stream().allMatch(id -> shard(id).embeddedH2());
    }

    /** Whether {@code id} is active (in {@link #shardIds()}). */
    public boolean isActive(ShardId id) {
        return order.contains(id);
    }

    /** The connection settings this instance's configuration gives for a shard not listed in atomicshards.shards. */
    public Optional<Credentials> unlisted(ShardId id) {
        return Optional.ofNullable(unlisted.get(id));
    }

    /**
     * The connection settings of a shard added at run time, as this instance reaches it: its own
     * {@code atomicshards.shard.<id>.url} if set, else the URL recorded in the catalog; the user and password of
     * {@code atomicshards.shard.<id>.user / .password} (none if unset).
     *
     * @param catalogUrl the URL the catalog records for the shard (without credentials), may be null
     * @return empty if neither gives a URL
     */
    public Optional<ShardSpec> runTimeShard(ShardId id, String catalogUrl) {
        Credentials own = unlisted.get(id);
        String url = own != null && own.url() != null ? own.url() : catalogUrl;
        if (url == null) {
            return Optional.empty();
        }
        return Optional.of(new ShardSpec(id, url, own == null ? null : own.user(), own == null ? null : own.password(),
                own != null && own.poolSize() != null ? own.poolSize() : defaultPoolSize));
    }

    /** The pool size of a shard added at run time without its own {@code pool_size}. */
    public int defaultPoolSize() {
        return defaultPoolSize;
    }

    /**
     * Makes a shard's connection settings known without making it active: its pool may open (to create its schema
     * and copy reference data), but no routing, fan-out or replication sees it yet.
     *
     * @throws IllegalStateException if a shard with this id is already known
     */
    public synchronized void stage(ShardSpec spec) {
        if (shards.putIfAbsent(spec.id(), spec) != null) {
            throw new IllegalStateException("Shard '" + spec.id() + "' is already in the topology");
        }
    }

    /** Forgets a staged shard that did not become active (its addition failed). */
    public synchronized void unstage(ShardId id) {
        if (!order.contains(id)) {
            shards.remove(id);
        }
    }

    /** Makes a staged shard active: it is appended to {@link #shardIds()}. Idempotent. */
    public synchronized void activate(ShardId id) {
        shard(id);
        if (!order.contains(id)) {
            List<ShardId> next = new ArrayList<>(order);
            next.add(id);
            order = List.copyOf(next);
        }
    }

    /** Removes a shard from the topology (it owns nothing any more). Idempotent. */
    public synchronized void retire(ShardId id) {
        if (order.contains(id)) {
            List<ShardId> next = new ArrayList<>(order);
            next.remove(id);
            order = List.copyOf(next);
        }
        shards.remove(id);
    }

    /**
     * What this instance's configuration says about connecting to {@code id}, for messages: the settings to set
     * when the shard was added at run time and this instance cannot reach it.
     */
    public String connectionSettingsHint(ShardId id) {
        String prefix = ShardingSettings.SHARD_PREFIX + id + ".";
        if (bootShards.contains(id)) {
            return "correct " + prefix + "url / " + prefix + "user / " + prefix + "password";
        }
        Credentials own = unlisted.get(id);
        return "shard '" + id + "' was added at run time and this instance reaches it with "
                + (own != null && own.url() != null ? prefix + "url" : "the URL recorded in the catalog (as_shard.url)")
                + (own != null && own.user() != null ? " and " + prefix + "user / .password" : " and no credentials")
                + ": set " + prefix + "user and " + prefix + "password (and " + prefix + "url if this instance "
                + "reaches the database at another address) in this instance's configuration";
    }

    public int virtualShards() {
        return virtualShards;
    }

    /** The virtual→physical map the settings propose (index = virtual shard). */
    public ShardId[] initialMap() {
        return initialMap.clone();
    }

    /** Whether the map was given explicitly (rather than the default even split). */
    public boolean hasExplicitMap() {
        return explicitMap;
    }

    /** An even contiguous split of {@code virtualShards} over {@code shards}, in order. */
    static ShardId[] evenSplit(List<ShardId> shards, int virtualShards) {
        ShardId[] map = new ShardId[virtualShards];
        int n = shards.size();
        for (int v = 0; v < virtualShards; v++) {
            map[v] = shards.get((int) ((long) v * n / virtualShards));
        }
        return map;
    }

    @Override
    public String toString() {
        return "Topology[shards=" + order + ", virtualShards=" + virtualShards + ", map=" + Arrays.toString(initialMap) + "]";
    }
}
