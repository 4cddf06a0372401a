package org.atomicshards.samples.resharding;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Reads a shard's live rows and the catalog's latest map with plain JDBC, bypassing the library, so that the check
 * sees what each database holds rather than what the library's routing would show.
 */
final class DirectReads {

    private DirectReads() {
    }

    /** Every user, status and photo in {@code shard}'s live tables, and its number of countries. */
    static ShardContents shard(String shard, String jdbcUrl) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
            Map<Long, String> users = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement("select id, email from app_user");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    users.put(rs.getLong(1), rs.getString(2));
                }
            }
            Map<Long, Long> statuses = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement("select id, user_id from Status");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    statuses.put(rs.getLong(1), rs.getLong(2));
                }
            }
            Map<UUID, Long> photos = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement("select id, user_id from Photo");
                 ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    photos.put(rs.getObject(1, UUID.class), rs.getLong(2));
                }
            }
            long countries;
            try (PreparedStatement ps = connection.prepareStatement("select count(*) from Country");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                countries = rs.getLong(1);
            }
            return new ShardContents(shard, users, statuses, photos, countries);
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read shard " + shard + " directly: " + e.getMessage(), e);
        }
    }

    /** The catalog's latest virtual-shard map: virtual shard to shard id. */
    static Map<Integer, String> latestMap(String catalogUrl) {
        try (Connection connection = DriverManager.getConnection(catalogUrl);
             PreparedStatement ps = connection.prepareStatement("select virtual_shard, shard_id from as_virtual_shard "
                     + "where version = (select max(version) from as_map_version)");
             ResultSet rs = ps.executeQuery()) {
            Map<Integer, String> map = new TreeMap<>();
            while (rs.next()) {
                map.put(rs.getInt(1), rs.getString(2));
            }
            return map;
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the catalog's map: " + e.getMessage(), e);
        }
    }

    /** Closes an in-memory H2 database kept open by {@code DB_CLOSE_DELAY=-1}, freeing its memory. */
    static void shutDown(String jdbcUrl) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl);
             PreparedStatement ps = connection.prepareStatement("shutdown")) {
            ps.execute();
        } catch (SQLException e) {
            throw new IllegalStateException("Could not shut the database down: " + e.getMessage(), e);
        }
    }
}
