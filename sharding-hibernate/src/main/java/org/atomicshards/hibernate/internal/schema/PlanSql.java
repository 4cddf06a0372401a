package org.atomicshards.hibernate.internal.schema;

import java.util.List;
import java.util.Locale;

import org.atomicshards.hibernate.ShardingPlan.Dialect;

/**
 * The statements of a sharding plan in one SQL dialect. Every identifier passed in is the stored name (as the
 * database's metadata returns it) and is quoted here, inner quote characters doubled; the only number written into a
 * statement is the batch size, checked positive. No value read from a table ever reaches the text.
 */
final class PlanSql {

    /** A key column to fill from the row its foreign key references, every name stored. */
    record Fill(String table, String id, String key, String foreignKey, String parentTable, String referenced,
                String parentKey) {
    }

    private final Dialect dialect;
    private final int batchSize;

    PlanSql(Dialect dialect, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("The backfill batch size must be at least 1, not " + batchSize);
        }
        this.dialect = dialect;
        this.batchSize = batchSize;
    }

    static Dialect dialectOf(String databaseProduct) {
        String product = databaseProduct.toLowerCase(Locale.ROOT);
        if (product.contains("postgres")) {
            return Dialect.POSTGRESQL;
        }
        if (product.contains("mariadb") || product.contains("mysql")) {
            return Dialect.MARIADB;
        }
        if (product.equals("h2")) {
            return Dialect.H2;
        }
        throw new IllegalArgumentException("No sharding plan is written for " + databaseProduct
                + " (PostgreSQL, MariaDB and H2 are): write the changes shardingGaps() lists by hand");
    }

    String quote(String stored) {
        return dialect == Dialect.MARIADB ? "`" + stored.replace("`", "``") + "`"
                : "\"" + stored.replace("\"", "\"\"") + "\"";
    }

    /** A new column, nullable: instant on PostgreSQL 11+ and MariaDB 10.3+ (no rewrite, no long lock). */
    String addColumn(String table, String column, String type) {
        return "ALTER TABLE " + quote(table) + " ADD COLUMN " + quote(column) + " " + type + " NULL";
    }

    /** Whether {@link #fill} commits batch by batch (and so runs outside the tool's transaction). */
    boolean fillCommitsInBatches() {
        return dialect != Dialect.H2;
    }

    /**
     * Fills the NULL keys of {@code fill.table} from the referenced rows: on PostgreSQL and MariaDB by ranges of
     * {@code batchSize} ids from the smallest id whose key is NULL to the largest, each range one committed UPDATE
     * (row locks on at most one range at a time, no table lock); rerunning resumes at the first NULL key left. On H2
     * (an embedded database for tests and development) one UPDATE.
     */
    List<String> fill(Fill fill) {
        String t = quote(fill.table());
        String id = quote(fill.id());
        String key = quote(fill.key());
        String fk = quote(fill.foreignKey());
        String parent = quote(fill.parentTable());
        String referenced = quote(fill.referenced());
        String parentKey = quote(fill.parentKey());
        return switch (dialect) {
            case POSTGRESQL -> List.of("DO $atomicshards$\n"
                    + "DECLARE\n    lo bigint;\n    hi bigint;\n"
                    + "BEGIN\n"
                    + "    SELECT min(t." + id + "), max(t." + id + ") INTO lo, hi FROM " + t + " t WHERE t." + key
                    + " IS NULL;\n"
                    + "    WHILE lo IS NOT NULL AND lo <= hi LOOP\n"
                    + "        UPDATE " + t + " t SET " + key + " = p." + parentKey + " FROM " + parent + " p\n"
                    + "         WHERE p." + referenced + " = t." + fk + " AND t." + id + " >= lo AND t." + id
                    + " < lo + " + batchSize + " AND t." + key + " IS NULL;\n"
                    + "        COMMIT;\n"
                    + "        lo := lo + " + batchSize + ";\n"
                    + "    END LOOP;\n"
                    + "END\n$atomicshards$");
            case MARIADB -> {
                String procedure = quote(truncate("as_fill_" + fill.table(), 64));
                yield List.of("DROP PROCEDURE IF EXISTS " + procedure,
                        "CREATE PROCEDURE " + procedure + "()\n"
                                + "BEGIN\n    DECLARE lo BIGINT;\n    DECLARE hi BIGINT;\n"
                                + "    SELECT MIN(" + id + "), MAX(" + id + ") INTO lo, hi FROM " + t + " WHERE " + key
                                + " IS NULL;\n"
                                + "    WHILE lo IS NOT NULL AND lo <= hi DO\n"
                                + "        UPDATE " + t + " t JOIN " + parent + " p ON p." + referenced + " = t." + fk
                                + " SET t." + key + " = p." + parentKey + "\n"
                                + "         WHERE t." + id + " >= lo AND t." + id + " < lo + " + batchSize + " AND t."
                                + key + " IS NULL;\n"
                                + "        COMMIT;\n"
                                + "        SET lo = lo + " + batchSize + ";\n"
                                + "    END WHILE;\n"
                                + "END",
                        "CALL " + procedure + "()",
                        "DROP PROCEDURE " + procedure);
            }
            case H2 -> List.of("UPDATE " + t + " t SET " + key + " = (SELECT p." + parentKey + " FROM " + parent
                    + " p WHERE p." + referenced + " = t." + fk + ") WHERE t." + key + " IS NULL");
        };
    }

    /**
     * NOT NULL on a filled column. PostgreSQL: a NOT VALID check constraint (a brief lock), validated while writes go
     * on, then SET NOT NULL without a scan, then the check dropped. MariaDB: in place without locking writers
     * ({@code LOCK=NONE}: the statement fails rather than block them). H2: a plain ALTER.
     */
    List<String> notNull(String table, String column, String type) {
        String t = quote(table);
        String c = quote(column);
        return switch (dialect) {
            case POSTGRESQL -> {
                String check = quote(truncate(table + "_" + column + "_not_null", 63));
                yield List.of("ALTER TABLE " + t + " DROP CONSTRAINT IF EXISTS " + check,
                        "ALTER TABLE " + t + " ADD CONSTRAINT " + check + " CHECK (" + c + " IS NOT NULL) NOT VALID",
                        "ALTER TABLE " + t + " VALIDATE CONSTRAINT " + check,
                        "ALTER TABLE " + t + " ALTER COLUMN " + c + " SET NOT NULL",
                        "ALTER TABLE " + t + " DROP CONSTRAINT " + check);
            }
            case MARIADB -> List.of("ALTER TABLE " + t + " MODIFY " + c + " " + type + " NOT NULL, ALGORITHM=INPLACE, "
                    + "LOCK=NONE");
            case H2 -> List.of("ALTER TABLE " + t + " ALTER COLUMN " + c + " SET NOT NULL");
        };
    }

    /** Whether {@link #index} must run outside a transaction (PostgreSQL builds it concurrently). */
    boolean indexOutsideTransaction() {
        return dialect == Dialect.POSTGRESQL;
    }

    /**
     * An index on {@code columns} that writes do not wait for: PostgreSQL {@code CONCURRENTLY} (an invalid index left
     * by a failure is dropped first on a rerun), MariaDB {@code LOCK=NONE}.
     */
    List<String> index(String table, List<String> columns) {
        String name = quote(truncate(table + "_" + String.join("_", columns) + "_key", 63));
        String list = String.join(", ", columns.stream().map(this::quote).toList());
        return switch (dialect) {
            case POSTGRESQL -> List.of("DROP INDEX CONCURRENTLY IF EXISTS " + name,
                    "CREATE INDEX CONCURRENTLY " + name + " ON " + quote(table) + " (" + list + ")");
            case MARIADB -> List.of("CREATE INDEX " + name + " ON " + quote(table) + " (" + list
                    + ") ALGORITHM=INPLACE LOCK=NONE");
            case H2 -> List.of("CREATE INDEX " + name + " ON " + quote(table) + " (" + list + ")");
        };
    }

    /** The database stops generating the column's values; the stored ones stay. */
    List<String> dropGeneration(String table, String column, String type) {
        String t = quote(table);
        String c = quote(column);
        return switch (dialect) {
            case POSTGRESQL -> List.of("ALTER TABLE " + t + " ALTER COLUMN " + c + " DROP IDENTITY IF EXISTS",
                    "ALTER TABLE " + t + " ALTER COLUMN " + c + " DROP DEFAULT");
            case MARIADB -> List.of("ALTER TABLE " + t + " MODIFY " + c + " " + type + " NOT NULL");
            case H2 -> List.of("ALTER TABLE " + t + " ALTER COLUMN " + c + " DROP IDENTITY");
        };
    }

    private static String truncate(String name, int max) {
        return name.length() <= max ? name : name.substring(0, max);
    }
}
