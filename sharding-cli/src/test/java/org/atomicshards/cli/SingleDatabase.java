package org.atomicshards.cli;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.samples.model.Country;
import org.atomicshards.samples.model.Photo;
import org.atomicshards.samples.model.Status;
import org.atomicshards.samples.model.User;

/** Copies the rows of the sample's shards into one unsharded database with the same tables. */
final class SingleDatabase {

    private SingleDatabase() {
    }

    static void copy(SampleShards shards, String targetUrl) throws SQLException {
        try (ShardedSessionFactory ignored = AtomicShards.configure().shard("single", targetUrl)
                .catalog("jdbc:h2:mem:single-" + UUID.randomUUID())
                .annotatedClasses(User.class, Status.class, Photo.class, Country.class).schemaAction("create").build()) {
            // creates the tables only
        }
        try (Connection target = DriverManager.getConnection(targetUrl)) {
            copyTable(shards, List.of("s0"), "Country", target);
            List<String> all = List.of("s0", "s1", "s2", "s3");
            for (String table : List.of("app_user", "Status", "Photo")) {
                copyTable(shards, all, table, target);
            }
        }
    }

    private static void copyTable(SampleShards shards, List<String> from, String table, Connection target) throws SQLException {
        for (String shard : from) {
            try (Connection source = DriverManager.getConnection(shards.settings.get("atomicshards.shard." + shard + ".url"),
                    shards.settings.get("atomicshards.shard." + shard + ".user"), shards.password);
                 PreparedStatement select = source.prepareStatement("select * from " + table);
                 ResultSet rows = select.executeQuery()) {
                int columns = rows.getMetaData().getColumnCount();
                StringBuilder names = new StringBuilder();
                for (int c = 1; c <= columns; c++) {
                    names.append(c == 1 ? "" : ", ").append(rows.getMetaData().getColumnName(c));
                }
                String insert = "insert into " + table + " (" + names + ") values (" + "?, ".repeat(columns - 1) + "?)";
                try (PreparedStatement statement = target.prepareStatement(insert)) {
                    while (rows.next()) {
                        for (int c = 1; c <= columns; c++) {
                            statement.setObject(c, rows.getObject(c));
                        }
                        statement.addBatch();
                    }
                    statement.executeBatch();
                }
            }
        }
    }
}
