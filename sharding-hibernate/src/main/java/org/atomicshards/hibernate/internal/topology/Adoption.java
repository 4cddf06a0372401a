package org.atomicshards.hibernate.internal.topology;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.admin.AdoptionRefusedException;
import org.atomicshards.hibernate.admin.AdoptionReport;
import org.atomicshards.hibernate.admin.ShardAdmin;
import org.atomicshards.hibernate.admin.ShardTopologyException;
import org.atomicshards.hibernate.internal.config.Topology;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.id.IdFloors;
import org.atomicshards.hibernate.internal.id.KeyGenerators;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.reshard.move.UnitKeyColumns;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;

/**
 * {@link ShardAdmin#adopt}: the database that held every row before sharding becomes the first shard, in place. Checks
 * (ownership, policies, key columns, stored ids), then raises the id sequences, prepares the ownership fence and logs
 * the adoption in the catalog. Copies nothing. Called one at a time (by {@link TopologyAdmin}).
 */
final class Adoption {

    private static final Logger LOG = System.getLogger(TopologyAdmin.LOGGER);

    private final Topology topology;
    private final ShardPools pools;
    private final CachedShardDirectory directory;
    private final Catalog catalog;
    private final ShardRouterImpl router;
    private final IdFloors idFloors;
    private final OwnershipFence fence;
    private final KeyGenerators keyGenerators;

    Adoption(Topology topology, ShardPools pools, CachedShardDirectory directory, ShardRouterImpl router,
             IdFloors idFloors, OwnershipFence fence, KeyGenerators keyGenerators) {
        this.topology = topology;
        this.pools = pools;
        this.directory = directory;
        this.catalog = directory.catalog();
        this.router = router;
        this.idFloors = idFloors;
        this.fence = fence;
        this.keyGenerators = keyGenerators;
    }

    AdoptionReport adopt(ShardId shard, boolean dryRun) {
        if (!topology.isActive(shard)) {
            topology.shard(shard); // throws UnknownShardException naming the topology
        }
        directory.refresh();
        int mapVersion = directory.version();
        int total = directory.virtualShards();
        List<Integer> owned = directory.virtualShardsOf(shard);
        if (owned.size() != total) {
            throw new ShardTopologyException("Cannot adopt the database of shard '" + shard + "' as the first shard: it "
                    + "owns " + owned.size() + " of the " + total + " virtual shards in the catalog's map (version "
                    + mapVersion + "), and adoption makes the one database that holds every row the owner of all of "
                    + "them. Nothing was changed. Fix: configure atomicshards.shards with that database alone, on a new "
                    + "catalog (atomicshards.catalog.url), adopt it, then add the other shards with add-shard and move "
                    + "virtual shards to them");
        }
        List<String> problems = new ArrayList<>();
        List<String> checked = new ArrayList<>();
        Map<String, Long> largest = new TreeMap<>();
        Map<String, Long> next = new TreeMap<>();
        for (UnitRoutingImpl unit : router.units()) {
            if (unit.placement().recordsPlacements()) {
                problems.add("unit " + unit.simpleName() + " uses the policy '" + unit.policy().selection().name() + "', which "
                        + "records the virtual shard of each unit when it is created, and the units stored before "
                        + "sharding have no such record (fix: adopt with a policy that computes the virtual shard from "
                        + "the key: hash, modulo, range, consistent_hash or snowflake)");
            }
        }
        try (Connection connection = pools.connection(shard)) {
            checkKeyColumns(connection, checked, problems);
            checkIds(connection, largest, next, problems);
        } catch (SQLException e) {
            throw new ShardUnavailableException("Cannot adopt the database of shard '" + shard + "': reading it failed ("
                    + e.getMessage() + "). Nothing was changed. Fix: check that the database is reachable with the "
                    + "user of atomicshards.shard." + shard + ".user", e);
        }
        if (!problems.isEmpty() || dryRun) {
            AdoptionReport report = new AdoptionReport(shard, total, mapVersion, false, checked, largest, next, problems);
            if (!problems.isEmpty() && !dryRun) {
                throw new AdoptionRefusedException(report);
            }
            return report;
        }
        for (IdFloors.Hierarchy hierarchy : idFloors.hierarchies()) {
            if (hierarchy.kind() == IdFloors.Kind.SEQUENCE) {
                next.put(hierarchy.rootEntity(), directory.raiseBlockFloor(hierarchy.rootEntity(),
                        next.getOrDefault(hierarchy.rootEntity(), 0L)));
            }
        }
        keyGenerators.discardSequenceBlocks();
        fence.ready(shard);
        String detail = shard + " owns virtual shards 0-" + (total - 1) + " (map version " + mapVersion + "); "
                + "next ids " + next;
        catalog.inTransaction("record the adoption", connection -> {
            Catalog.logOperation(connection, "ADOPT", detail);
            return null;
        });
        LOG.log(Level.INFO, () -> "Adopted the database of shard '" + shard + "' in place: " + detail
                + "; nothing was copied");
        return new AdoptionReport(shard, total, mapVersion, true, checked, largest, next, problems);
    }

    /** Every key column of every unit: present, and holding a key in every row. */
    private void checkKeyColumns(Connection connection, List<String> checked, List<String> problems) {
        for (UnitRoutingImpl unit : router.units()) {
            List<UnitKeyColumns.KeyColumn> columns;
            try {
                columns = UnitKeyColumns.of(unit);
            } catch (UnsupportedOperationException e) {
                problems.add(e.getMessage());
                continue;
            }
            for (UnitKeyColumns.KeyColumn column : columns) {
                String name = column.table() + "." + column.column();
                checked.add(name);
                // identifiers from the mapping, never values; one row is enough to know (an index lookup once the
                // key-leading index exists)
                try (PreparedStatement ps = connection.prepareStatement("select 1 from " + column.table() + " where "
                        + column.column() + " is null")) {
                    ps.setMaxRows(1);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            problems.add("table " + column.table() + " has rows whose key column " + column.column()
                                    + " is null, which no move would find (fix: fill the key column in every row, "
                                    + "from the row it belongs to, make it NOT NULL, then adopt)");
                        }
                    }
                } catch (SQLException e) {
                    rollbackQuietly(connection);
                    problems.add("the key column " + name + " of unit " + unit.simpleName() + " cannot be read ("
                            + e.getMessage().strip() + ") (fix: apply the migration that adds the key column to "
                            + column.table() + " and fills it)");
                }
            }
        }
    }

    /** The largest stored id of each hierarchy whose ids the library makes; Snowflake ids must stay above them. */
    private void checkIds(Connection connection, Map<String, Long> largest, Map<String, Long> next,
                          List<String> problems) {
        Map<String, BigDecimal> stored;
        try {
            stored = idFloors.largestIds(connection);
        } catch (SQLException e) {
            rollbackQuietly(connection);
            problems.add("the largest ids cannot be read (" + e.getMessage().strip() + ") (fix: create the tables "
                    + "the model maps, with the application's migrations)");
            return;
        }
        long firstSnowflake = IdFloors.firstSnowflakeAt(System.currentTimeMillis());
        for (IdFloors.Hierarchy hierarchy : idFloors.hierarchies()) {
            BigDecimal max = stored.get(hierarchy.rootEntity());
            if (max == null) {
                continue;
            }
            if (max.compareTo(BigDecimal.valueOf(Long.MAX_VALUE - 1)) >= 0) {
                problems.add("entity " + hierarchy.rootEntity() + " stores ids up to " + max + ", beyond the range "
                        + "of the library's numeric ids (fix: use @TimeOrderedUuidId, or ids assigned by the "
                        + "application)");
                continue;
            }
            long value = max.longValueExact();
            largest.put(hierarchy.rootEntity(), value);
            if (hierarchy.kind() == IdFloors.Kind.SEQUENCE) {
                next.put(hierarchy.rootEntity(), Math.max(0, value + 1));
            } else if (value >= firstSnowflake) {
                problems.add("entity " + hierarchy.rootEntity() + " stores ids up to " + value + ", and the Snowflake "
                        + "ids made from now on start at " + firstSnowflake + ", so new ids could collide with stored "
                        + "ones (fix: use @SequenceBlockId for it: its ids then start above the largest stored id)");
            }
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback(); // PostgreSQL ends a transaction at its first failed statement
            }
        } catch (SQLException ignored) {
            // the next statement reports the connection's state
        }
    }
}
