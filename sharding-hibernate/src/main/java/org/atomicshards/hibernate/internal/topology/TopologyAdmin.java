package org.atomicshards.hibernate.internal.topology;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.admin.AdoptionReport;
import org.atomicshards.hibernate.admin.NewShard;
import org.atomicshards.hibernate.admin.ReferenceDataDivergence;
import org.atomicshards.hibernate.admin.ShardAdded;
import org.atomicshards.hibernate.admin.ShardAdmin;
import org.atomicshards.hibernate.admin.ShardStillOwnsDataException;
import org.atomicshards.hibernate.admin.ShardTopologyException;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.config.ShardSpec;
import org.atomicshards.hibernate.internal.config.ShardingConfig;
import org.atomicshards.hibernate.internal.config.Topology;
import org.atomicshards.hibernate.internal.config.UrlCredentials;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.id.IdFloors;
import org.atomicshards.hibernate.internal.id.KeyGenerators;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.schema.PerShardSchema;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * {@link ShardAdmin}'s topology operations: adopting the database that held every row before sharding as the first
 * shard ({@link Adoption}), adding a shard (pool, schema, reference data, catalog record, then active) and retiring
 * one that owns nothing. One operation at a time per factory; the catalog's records and its
 * unique keys settle races with other instances.
 */
public final class TopologyAdmin {

    static final String LOGGER = "org.atomicshards.hibernate.topology";

    private static final Logger LOG = System.getLogger(LOGGER);

    private final ShardingConfig config;
    private final Topology topology;
    private final ShardPools pools;
    private final PerShardSchema schema;
    private final ReadWriteLock topologyLock;
    private final CachedShardDirectory directory;
    private final Catalog catalog;
    private final ReferenceDataCopier referenceData;
    private final Adoption adoption;

    /**
     * @param topologyLock write-locked while a new shard receives its copy of reference data and joins the topology
     *                     (reference-data writes hold it for reading)
     */
    public TopologyAdmin(ShardingConfig config, CachedShardDirectory directory, SessionFactoryImplementor sessionFactory,
                         ShardRouterImpl router, ShardPools pools, PerShardSchema schema, ReadWriteLock topologyLock,
                         OwnershipFence fence, KeyGenerators keyGenerators) {
        this.config = config;
        this.topology = config.topology();
        this.directory = directory;
        this.catalog = directory.catalog();
        this.pools = pools;
        this.schema = schema;
        this.topologyLock = topologyLock;
        this.referenceData = new ReferenceDataCopier(sessionFactory, router.referenceDataTypes());
        this.adoption = new Adoption(topology, pools, directory, router, IdFloors.of(sessionFactory, router), fence,
                keyGenerators);
    }

    /** See {@link ShardAdmin#adopt(ShardId, boolean)}. */
    public synchronized AdoptionReport adopt(ShardId shard, boolean dryRun) {
        return adoption.adopt(shard, dryRun);
    }

    /** See {@link ShardAdmin#addShard(NewShard)}. */
    public synchronized ShardAdded addShard(NewShard request) {
        ShardId id = request.id();
        refuseTaken(id);
        ShardSpec spec = spec(request);
        topology.stage(spec);
        boolean recorded = false;
        try {
            checkDatabase(spec);
            schema.prepareNewShard(id);
            Lock exclusive = topologyLock.writeLock();
            exclusive.lock(); // no reference-data write in this instance between the copy and the activation
            try {
                ShardId source = topology.shardIds().get(0);
                Map<String, Long> copied = referenceData.copyWhereEmpty(source, id);
                List<ShardId> all = new ArrayList<>(topology.shardIds());
                all.add(id);
                List<ReferenceDataDivergence> divergences = referenceData.divergences(all);
                if (!catalog.addShard(id.name(), spec.url())) {
                    throw new ShardTopologyException("Cannot add shard '" + id + "': another instance registered a "
                            + "shard with this id in the catalog meanwhile. Nothing was recorded by this call. Fix: "
                            + "choose another id (this instance takes the other one over at its next refresh)");
                }
                recorded = true;
                topology.activate(id);
                LOG.log(Level.INFO, () -> "Added shard '" + id + "' (" + Redaction.url(spec.url()) + "): schema "
                        + "prepared, reference rows copied from '" + source + "': " + copied + "; it owns no virtual "
                        + "shard yet");
                divergences.forEach(d -> LOG.log(Level.WARNING, () -> "Reference data differs between shards: " + d
                        + ". Fix: rewrite the rows with ShardedSessionFactory.replicate"));
                return new ShardAdded(id, copied, source, divergences);
            } finally {
                exclusive.unlock();
            }
        } finally {
            if (!recorded) {
                topology.unstage(id);
                pools.retire(id, 0);
            }
        }
    }

    private void refuseTaken(ShardId id) {
        if (topology.find(id).isPresent()) {
            throw new ShardTopologyException("Cannot add shard '" + id + "': the topology " + topology.shardIds()
                    + " has a shard with this id already. Nothing was changed. Fix: choose another id");
        }
        Catalog.ShardRecord record = catalog.shardRecords().get(id.name());
        if (record != null && "RETIRED".equals(record.status())) {
            throw new ShardTopologyException("Cannot add shard '" + id + "': the catalog's shard registry (as_shard) "
                    + "records a shard with this id as RETIRED, and ids are never reused (an instance on an old "
                    + "topology could take one for the other). Nothing was changed. Fix: choose another id");
        }
        if (record != null) {
            throw new ShardTopologyException("Cannot add shard '" + id + "': the catalog's shard registry (as_shard) "
                    + "records it already (status " + record.status() + ", " + (record.addedAtRunTime()
                    ? "added at run time" : "listed in a configuration") + "), but this instance does not have it: "
                    + "it takes it over at its next refresh, with " + topology.connectionSettingsHint(id)
                    + ". Nothing was changed");
        }
    }

    private ShardSpec spec(NewShard request) {
        String url = request.url();
        if (!url.startsWith("jdbc:")) {
            throw new ShardTopologyException("Cannot add shard '" + request.id() + "': its URL '" + Redaction.url(url)
                    + "' is not a JDBC URL. Nothing was changed. Fix: use a URL starting with 'jdbc:'");
        }
        UrlCredentials inUrl = UrlCredentials.extract(url);
        String user = agreeing(request.id(), "user", inUrl.user(), request.user());
        String password = agreeing(request.id(), "password", inUrl.password(), request.password());
        return new ShardSpec(request.id(), inUrl.url(), user, password,
                request.poolSize() != null ? request.poolSize() : topology.defaultPoolSize());
    }

    private static String agreeing(ShardId id, String what, String inUrl, String given) {
        if (inUrl != null && given != null && !inUrl.equals(given)) {
            throw new ShardTopologyException("Cannot add shard '" + id + "': its URL carries a " + what + " and a "
                    + "different one was given. Nothing was changed. Fix: give the " + what + " in one place only");
        }
        return inUrl != null ? inUrl : given;
    }

    /** Connects to the new shard and checks that it is the same kind of database as the others. */
    private void checkDatabase(ShardSpec spec) {
        String product;
        try (Connection connection = pools.connection(spec.id())) {
            product = connection.getMetaData().getDatabaseProductName();
        } catch (ShardUnavailableException | SQLException e) {
            throw new ShardUnavailableException("Cannot add shard '" + spec.id() + "': its database at "
                    + Redaction.url(spec.url()) + " cannot be reached (" + Redaction.url(String.valueOf(
                    e instanceof ShardUnavailableException && e.getCause() != null ? e.getCause().getMessage()
                            : e.getMessage())) + "). Nothing was recorded. Fix: start the database or correct the URL, "
                    + "user or password given to addShard", e);
        }
        ShardId existing = topology.shardIds().get(0);
        String existingProduct;
        try (Connection connection = pools.connection(existing)) {
            existingProduct = connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new ShardUnavailableException("Cannot add shard '" + spec.id() + "': shard '" + existing
                    + "' (the source of its reference data) cannot be reached: " + Redaction.url(e.getMessage()), e);
        }
        if (!product.equalsIgnoreCase(existingProduct)) {
            throw new ShardTopologyException("Cannot add shard '" + spec.id() + "': its database is " + product
                    + " but the factory's shards are " + existingProduct + "; all shards of one factory share one "
                    + "Hibernate dialect. Nothing was recorded. Fix: add a " + existingProduct + " database");
        }
    }

    /** See {@link ShardAdmin#removeShard(ShardId)}. */
    public synchronized void removeShard(ShardId shard) {
        if (!topology.isActive(shard)) {
            topology.shard(shard); // throws UnknownShardException naming the topology
        }
        if (config.defaultShard().filter(shard::equals).isPresent()) {
            throw new ShardTopologyException("Cannot remove shard '" + shard + "': it is this instance's "
                    + "atomicshards.default_shard. Nothing was changed. Fix: set atomicshards.default_shard to "
                    + "another shard first");
        }
        CachedShardDirectory.Ownership owned = directory.retireIfOwnsNothing(shard);
        if (!owned.isEmpty()) {
            throw stillOwns(shard, owned);
        }
        topology.retire(shard);
        long wait = config.timeouts().transactionTimeoutMillis() + 1_000;
        boolean drained = pools.retire(shard, wait);
        LOG.log(Level.INFO, () -> "Retired shard '" + shard + "'" + (drained ? "" : "; work still running on it after "
                + wait + " ms lost its connection") + (topology.configuredShardIds().contains(shard)
                ? ". Remove it from atomicshards.shards before the next restart" : ""));
    }

    private ShardStillOwnsDataException stillOwns(ShardId shard, CachedShardDirectory.Ownership owned) {
        List<String> parts = new ArrayList<>();
        if (!owned.virtualShards().isEmpty()) {
            parts.add("virtual shards " + ranges(owned.virtualShards()) + " (" + owned.virtualShards().size() + " of "
                    + directory.virtualShards() + ", map version " + owned.mapVersion() + ")");
        }
        if (owned.placements() > 0) {
            parts.add(owned.placements() + " placements of lookup / round-robin units on them");
        }
        if (!owned.ringUnits().isEmpty()) {
            parts.add("a place in the consistent-hash ring of " + owned.ringUnits());
        }
        return new ShardStillOwnsDataException("Cannot remove shard '" + shard + "': it still owns "
                + String.join(", ", parts) + ", so its rows would have no shard. Nothing was changed. Fix: move them "
                + "to other shards first (ShardAdmin move / drain), then remove it", shard, owned.virtualShards(),
                owned.placements(), owned.ringUnits());
    }

    /** Ascending numbers as ranges: {@code 0-3, 7, 9-10}. */
    static String ranges(List<Integer> sorted) {
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < sorted.size()) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            if (text.length() > 0) {
                text.append(", ");
            }
            text.append(sorted.get(i));
            if (j > i) {
                text.append('-').append(sorted.get(j));
            }
            i = j + 1;
        }
        return text.toString();
    }
}
