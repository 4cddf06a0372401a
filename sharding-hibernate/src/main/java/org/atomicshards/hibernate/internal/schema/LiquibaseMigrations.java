package org.atomicshards.hibernate.internal.schema;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

import liquibase.Scope;
import liquibase.command.CommandScope;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.atomicshards.hibernate.internal.config.ShardSpec;

/**
 * Liquibase on one shard: the application's change log applied with Liquibase's {@code update} command over a
 * connection of its own to the shard (outside the shard's pool), resources from the thread's context class loader at
 * construction. Liquibase's tables ({@code DATABASECHANGELOG}, {@code DATABASECHANGELOGLOCK}) live on each shard; the
 * version of a shard is the id of the change set it applied last.
 */
final class LiquibaseMigrations implements MigrationTool {

    private final String changelog;
    private final ClassLoader classLoader;

    LiquibaseMigrations(String changelog, ClassLoader classLoader) {
        this.changelog = changelog;
        this.classLoader = classLoader;
    }

    @Override
    public String name() {
        return "liquibase";
    }

    @Override
    public String migrate(ShardSpec shard) throws Exception {
        try (Connection connection = DriverManager.getConnection(shard.url(), shard.user(), shard.password())) {
            Database database = DatabaseFactory.getInstance()
                    .findCorrectDatabaseImplementation(new JdbcConnection(connection));
            Scope.child(Map.of(Scope.Attr.resourceAccessor.name(), new ClassLoaderResourceAccessor(classLoader)),
                    () -> new CommandScope(UpdateCommandStep.COMMAND_NAME)
                            .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                            .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, changelog)
                            .execute());
            return lastChangeSet(connection);
        }
    }

    @Override
    public String version(ShardSpec shard) throws SQLException {
        try (Connection connection = DriverManager.getConnection(shard.url(), shard.user(), shard.password())) {
            return lastChangeSet(connection);
        }
    }

    /** The id of the change set applied last; null if Liquibase never ran on the database. */
    private static String lastChangeSet(Connection connection) throws SQLException {
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
        String table = null;
        try (ResultSet tables = connection.getMetaData().getTables(connection.getCatalog(), connection.getSchema(), "%",
                new String[] {"TABLE"})) {
            while (tables.next()) {
                if ("databasechangelog".equalsIgnoreCase(tables.getString("TABLE_NAME"))) {
                    table = tables.getString("TABLE_NAME"); // as Liquibase created it: upper case on H2 and MariaDB
                }
            }
        }
        if (table == null) {
            return null;
        }
        String quote = connection.getMetaData().getIdentifierQuoteString().strip();
        // an identifier from the database's own metadata, quoted by its driver's quote; no value in the text
        try (PreparedStatement ps = connection.prepareStatement(
                "select id from " + quote + table + quote + " order by orderexecuted desc")) {
            ps.setMaxRows(1);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
