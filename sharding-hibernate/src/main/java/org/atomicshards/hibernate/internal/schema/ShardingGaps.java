package org.atomicshards.hibernate.internal.schema;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.ShardingGap;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.id.IdFloors;
import org.atomicshards.hibernate.internal.reshard.move.UnitKeyColumns;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;

/**
 * {@link org.atomicshards.hibernate.ShardSchema#shardingGaps()}: each shard's live schema, read from JDBC metadata
 * (plus one indexed probe per key column for NULLs), against what the model needs to be sharded. Reads only.
 */
public final class ShardingGaps {

    private final ShardRouterImpl router;
    private final IdFloors ids;
    private final ShardPools pools;
    private final Supplier<List<ShardId>> shards;

    public ShardingGaps(ShardRouterImpl router, IdFloors ids, ShardPools pools, Supplier<List<ShardId>> shards) {
        this.router = router;
        this.ids = ids;
        this.pools = pools;
        this.shards = shards;
    }

    /** Every gap on every shard, in topology order. */
    public List<ShardingGap> find() {
        List<ShardingGap> gaps = new ArrayList<>();
        for (ShardId shard : shards.get()) {
            try (Connection connection = pools.connection(shard)) {
                gaps.addAll(on(shard, connection));
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
            } catch (SQLException e) {
                throw new ShardUnavailableException("Cannot read the schema of shard '" + shard + "': "
                        + Redaction.url(String.valueOf(e.getMessage())) + ". Nothing was changed", e);
            }
        }
        return gaps;
    }

    /** The gaps of one shard, read through {@code connection}, in the order a migration closes them. */
    List<ShardingGap> on(ShardId shard, Connection connection) throws SQLException {
        DatabaseMetaData metadata = connection.getMetaData();
        LiveNames names = new LiveNames(metadata, connection.getCatalog(), connection.getSchema());
        List<ShardingGap> gaps = new ArrayList<>();
        for (UnitRoutingImpl unit : router.units()) {
            List<UnitKeyColumns.KeyColumn> columns;
            try {
                columns = UnitKeyColumns.of(unit);
            } catch (UnsupportedOperationException e) {
                continue; // a mapping no move can copy: the boot's model check and the movers report it
            }
            for (UnitKeyColumns.KeyColumn key : columns) {
                LiveNames.Column column = names.column(key.table(), key.column());
                if (column == null) {
                    gaps.add(new ShardingGap(shard, ShardingGap.Kind.KEY_COLUMN_MISSING, key.table(), key.column(),
                            "table " + key.table() + " has no column " + key.column() + " for the key of unit "
                                    + unit.simpleName() + ": add it, nullable, and fill it from the row each row "
                                    + "belongs to"));
                    continue;
                }
                if (hasNull(connection, key)) {
                    gaps.add(new ShardingGap(shard, ShardingGap.Kind.KEY_VALUES_MISSING, key.table(), key.column(),
                            "table " + key.table() + " has rows whose key column " + key.column() + " is null: fill "
                                    + "them in batches from the row each belongs to"));
                }
                if (column.nullable()) {
                    gaps.add(new ShardingGap(shard, ShardingGap.Kind.KEY_COLUMN_NULLABLE, key.table(), key.column(),
                            "column " + key.table() + "." + key.column() + " accepts null: make it NOT NULL once "
                                    + "every row has a key"));
                }
                if (!names.indexLeadsWith(key.table(), key.column())) {
                    gaps.add(new ShardingGap(shard, ShardingGap.Kind.KEY_INDEX_MISSING, key.table(), key.column(),
                            "no index of " + key.table() + " leads with " + key.column() + ": create one on ("
                                    + key.column() + ", id) so moves find a unit's rows without scanning the table"));
                }
            }
        }
        for (IdFloors.Hierarchy hierarchy : ids.hierarchies()) {
            for (IdFloors.IdColumn id : hierarchy.columns()) {
                LiveNames.Column column = names.column(id.table(), id.column());
                if (column != null && column.generated()) {
                    gaps.add(new ShardingGap(shard, ShardingGap.Kind.DATABASE_GENERATED_ID, id.table(), id.column(),
                            "column " + id.table() + "." + id.column() + " is generated by the database (IDENTITY or "
                                    + "AUTO_INCREMENT) while the ids of " + hierarchy.rootEntity() + " come from "
                                    + "the library: drop the database's generation, keeping the stored ids"));
                }
            }
        }
        return gaps;
    }

    private static boolean hasNull(Connection connection, UnitKeyColumns.KeyColumn key) throws SQLException {
        // identifiers from the mapping, never values
        try (PreparedStatement ps = connection.prepareStatement("select 1 from " + key.table() + " where "
                + key.column() + " is null")) {
            ps.setMaxRows(1);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }
}
