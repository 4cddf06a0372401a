package org.atomicshards.hibernate.internal.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardSchemaException;
import org.atomicshards.hibernate.ShardUnavailableException;
import org.atomicshards.hibernate.ShardingGap;
import org.atomicshards.hibernate.ShardingGap.Kind;
import org.atomicshards.hibernate.ShardingPlan;
import org.atomicshards.hibernate.ShardingPlan.Step;
import org.atomicshards.hibernate.UnknownShardException;
import org.atomicshards.hibernate.internal.config.Redaction;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.reshard.move.UnitKeyColumns;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;

/**
 * {@link org.atomicshards.hibernate.ShardSchema#shardingPlan}: turns one shard's {@link ShardingGaps} into the
 * migration steps that close them, in the shard's dialect ({@link PlanSql}), each key filled from the row its
 * foreign key references ({@link KeyParents}). Reads only.
 */
public final class ShardingPlanner {

    private final ShardRouterImpl router;
    private final ShardingGaps gaps;
    private final ShardPools pools;
    private final Supplier<List<ShardId>> shards;

    public ShardingPlanner(ShardRouterImpl router, ShardingGaps gaps, ShardPools pools,
                           Supplier<List<ShardId>> shards) {
        this.router = router;
        this.gaps = gaps;
        this.pools = pools;
        this.shards = shards;
    }

    /**
     * @throws UnknownShardException if {@code shard} is not one of the factory's shards
     * @throws ShardSchemaException naming the table whose key the plan cannot fill and what to do instead
     * @throws ShardUnavailableException naming a shard that cannot be read
     */
    public ShardingPlan plan(ShardId shard, int batchSize) {
        if (!shards.get().contains(shard)) {
            throw new UnknownShardException("No shard '" + shard + "' to plan for: the shards are " + shards.get());
        }
        try (Connection connection = pools.connection(shard)) {
            ShardingPlan plan = plan(shard, connection, batchSize);
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
            return plan;
        } catch (SQLException e) {
            throw new ShardUnavailableException("Cannot read the schema of shard '" + shard + "': "
                    + Redaction.url(String.valueOf(e.getMessage())) + ". Nothing was changed", e);
        }
    }

    private ShardingPlan plan(ShardId shard, Connection connection, int batchSize) throws SQLException {
        ShardingPlan.Dialect dialect = PlanSql.dialectOf(connection.getMetaData().getDatabaseProductName());
        PlanSql sql = new PlanSql(dialect, batchSize);
        LiveNames names = new LiveNames(connection.getMetaData(), connection.getCatalog(), connection.getSchema());
        Map<String, Set<Kind>> found = new LinkedHashMap<>();
        List<ShardingGap> generated = new ArrayList<>();
        for (ShardingGap gap : gaps.on(shard, connection)) {
            if (gap.kind() == Kind.DATABASE_GENERATED_ID) {
                generated.add(gap);
            } else {
                found.computeIfAbsent(gap.table() + "\u0000" + gap.column(), k -> EnumSet.noneOf(Kind.class))
                        .add(gap.kind());
            }
        }
        List<String> add = new ArrayList<>();
        List<String> fill = new ArrayList<>();
        List<String> notNull = new ArrayList<>();
        List<String> index = new ArrayList<>();
        Map<String, String> addedTypes = new LinkedHashMap<>();
        for (UnitRoutingImpl unit : router.units()) {
            List<UnitKeyColumns.KeyColumn> keys;
            Map<String, KeyParents.Parent> parents;
            try {
                keys = UnitKeyColumns.of(unit);
                parents = KeyParents.of(unit);
            } catch (UnsupportedOperationException e) {
                continue; // a mapping no move can copy: the boot's model check and the movers report it
            }
            for (UnitKeyColumns.KeyColumn key : keys) {
                Set<Kind> kinds = found.getOrDefault(key.table() + "\u0000" + key.column(), Set.of());
                if (kinds.isEmpty()) {
                    continue;
                }
                String table = names.stored(key.table());
                String column = names.stored(key.column());
                boolean missing = kinds.contains(Kind.KEY_COLUMN_MISSING);
                KeyParents.Parent parent = parents.get(key.table());
                String type = missing ? null : names.type(key.table(), key.column());
                if (missing) {
                    if (parent == null) {
                        throw unfillable(unit, key, "has no column " + key.column());
                    }
                    type = addedTypes.get(parent.parentTable() + "\u0000" + parent.parentKey());
                    if (type == null) {
                        type = names.type(parent.parentTable(), parent.parentKey());
                    }
                    addedTypes.put(key.table() + "\u0000" + key.column(), type);
                    add.add(sql.addColumn(table, column, type));
                }
                if (missing || kinds.contains(Kind.KEY_VALUES_MISSING) || kinds.contains(Kind.KEY_COLUMN_NULLABLE)) {
                    if (parent == null) {
                        if (missing || kinds.contains(Kind.KEY_VALUES_MISSING)) {
                            throw unfillable(unit, key, "has rows whose key column " + key.column() + " is null");
                        }
                    } else {
                        List<String> fillKey = sql.fill(fillOf(names, unit, key, parent));
                        if (missing || kinds.contains(Kind.KEY_VALUES_MISSING)) {
                            fill.addAll(fillKey);
                        }
                        notNull.addAll(fillKey); // the rows written without a key since the fill
                    }
                    notNull.addAll(sql.notNull(table, column, type));
                }
                if (missing || kinds.contains(Kind.KEY_INDEX_MISSING)) {
                    List<String> primaryKey = names.primaryKey(key.table());
                    List<String> columns = new ArrayList<>(List.of(column));
                    if (primaryKey.size() == 1 && !primaryKey.get(0).equalsIgnoreCase(column)) {
                        columns.add(primaryKey.get(0));
                    }
                    index.addAll(sql.index(table, columns));
                }
            }
        }
        List<String> drop = new ArrayList<>();
        for (ShardingGap gap : generated) {
            drop.addAll(sql.dropGeneration(names.stored(gap.table()), names.stored(gap.column()),
                    names.type(gap.table(), gap.column())));
        }
        return new ShardingPlan(shard, dialect, steps(sql, batchSize, add, fill, notNull, index, drop));
    }

    private static List<Step> steps(PlanSql sql, int batchSize, List<String> add, List<String> fill,
                                    List<String> notNull, List<String> index, List<String> drop) {
        boolean batched = sql.fillCommitsInBatches();
        List<Step> steps = new ArrayList<>();
        if (!add.isEmpty()) {
            steps.add(new Step("add_shard_key_columns", List.of(
                    "The column each member table needs for its unit's key, nullable: no rewrite of the table, a brief "
                            + "lock. The running application is unaffected.",
                    "Next: deploy the application version that writes the key column (the annotated model), then "
                            + "apply the fill."), add, true, false));
        }
        if (!fill.isEmpty()) {
            steps.add(new Step("fill_shard_keys", batched ? List.of(
                    "Fills the key of the rows stored without one from the row each references, parents first, by "
                            + "ranges of " + batchSize + " ids, each range committed on its own: row locks on one "
                            + "range at a time, no table lock; the application keeps writing.",
                    "Resumable: rerun after an interruption starts at the first row still without a key. Runs "
                            + "outside a transaction (each batch commits).") : List.of(
                    "Fills the key of the rows stored without one from the row each references, parents first, in "
                            + "one statement (H2 has no procedural loop: it is a database for tests and "
                            + "development, not for a production table under load)."), fill, !batched, false));
        }
        if (!notNull.isEmpty()) {
            steps.add(new Step("shard_keys_not_null", List.of(
                    "Fills again the rows written without a key since the fill (few once the application writes "
                            + "the key), then makes each key column NOT NULL without blocking writes for a scan.",
                    "Fails, changing no column, while a row still has no key (an application instance that does "
                            + "not write it yet): deploy it everywhere and rerun."), notNull, !batched, false));
        }
        if (!index.isEmpty()) {
            List<String> comment = new ArrayList<>(List.of("An index leading with each key column, built without "
                    + "blocking writes: moves find a unit's rows through it instead of scanning the table."));
            if (sql.indexOutsideTransaction()) {
                comment.add("Flyway: set postgresql.transactional.lock=false (flyway.postgresql.transactional.lock), "
                        + "or CREATE INDEX CONCURRENTLY waits forever for the transaction holding Flyway's own lock.");
            }
            steps.add(new Step("shard_key_indexes", comment, index, !sql.indexOutsideTransaction(), false));
        }
        if (!drop.isEmpty()) {
            steps.add(new Step("drop_database_generated_ids", List.of(
                    "The database stops generating ids (IDENTITY, AUTO_INCREMENT); every stored id stays.",
                    "Apply it during the restart onto the library, after the old application stopped: its inserts "
                            + "rely on the database making the id.",
                    "Switching the ids is a model change: annotate the id with @SequenceBlockId (or @SnowflakeId) "
                            + "instead of @GeneratedValue(IDENTITY or SEQUENCE); adopt then raises the library's id "
                            + "floor of each entity above its largest stored id, so no new id collides with a stored "
                            + "one, on this shard or on the shards added later."), drop, true, true));
        }
        return steps;
    }

    private static PlanSql.Fill fillOf(LiveNames names, UnitRoutingImpl unit, UnitKeyColumns.KeyColumn key,
                                       KeyParents.Parent parent) throws SQLException {
        List<String> primaryKey = names.primaryKey(key.table());
        if (primaryKey.size() != 1 || !names.integral(key.table(), primaryKey.get(0))) {
            throw unfillable(unit, key, "has no primary key of one integer column to fill it by ranges ("
                    + primaryKey + ")");
        }
        return new PlanSql.Fill(names.stored(key.table()), primaryKey.get(0), names.stored(key.column()),
                names.stored(parent.foreignKey()), names.stored(parent.parentTable()),
                names.stored(parent.referenced()), names.stored(parent.parentKey()));
    }

    private static ShardSchemaException unfillable(UnitRoutingImpl unit, UnitKeyColumns.KeyColumn key, String what) {
        return new ShardSchemaException("Cannot plan the key column " + key.table() + "." + key.column() + " of unit "
                + unit.simpleName() + ": the table " + what + " and the plan cannot fill it (it fills a key from a "
                + "many-to-one to another entity of the unit, through a table with one integer primary key column). "
                + "Write that step by hand, then plan again: the plan covers what is left. Nothing was changed", null);
    }
}
