package org.atomicshards.samples.resharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The demo's check against real shards: after a small run, the test breaks what the shard databases hold (a unit
 * copied to a second shard, a unit deleted, a unit moved to a shard the map does not name) and the check, reading the
 * databases directly, must report each, so the main job would fail.
 */
class BrokenShardsTest {

    private static final String[] MEMBER_TABLES = {"Status", "Photo"};

    @Test
    void aDuplicatedAMissingAndAMisplacedUnitAreEachReported() {
        List<Long> broken = Collections.synchronizedList(new ArrayList<>());
        ReshardingDemo.Outcome outcome = ReshardingDemo.runUnchecked(
                new ReshardingDemo.Settings(60, 4, 1, Duration.ofMillis(100), 4),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                urls -> breakShards(urls, broken));

        long duplicated = broken.get(0);
        long missing = broken.get(1);
        long misplaced = broken.get(2);
        assertThat(outcome.problems()).contains(
                "duplicated: user " + duplicated + " is on [s0, s1] (the map names s0)",
                "missing: user " + missing + " was acknowledged and is on no shard (the map names s2)",
                "wrong shard: user " + misplaced + " is on s0, the map names s3");
        assertThat(outcome.problems()).anyMatch(p -> p.startsWith("fan-out: counted "));
        assertThatThrownBy(() -> ReshardingDemo.requireNoProblems(outcome.problems()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("duplicated: user " + duplicated);
    }

    /** Copies a unit of s0 to s1, deletes a unit of s2, moves a unit of s3 to s0; records their ids in order. */
    private static void breakShards(Map<String, String> urls, List<Long> broken) {
        try (Connection s0 = DriverManager.getConnection(urls.get("s0"));
             Connection s1 = DriverManager.getConnection(urls.get("s1"));
             Connection s2 = DriverManager.getConnection(urls.get("s2"));
             Connection s3 = DriverManager.getConnection(urls.get("s3"))) {
            long duplicated = anyUser(s0);
            copyUnit(s0, s1, duplicated);
            long missing = anyUser(s2);
            deleteUnit(s2, missing);
            long misplaced = anyUser(s3);
            copyUnit(s3, s0, misplaced);
            deleteUnit(s3, misplaced);
            broken.addAll(List.of(duplicated, missing, misplaced));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long anyUser(Connection shard) throws SQLException {
        try (PreparedStatement ps = shard.prepareStatement("select min(id) from app_user");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void copyUnit(Connection from, Connection to, long user) throws SQLException {
        copyRows(from, to, "app_user", "id", user);
        for (String table : MEMBER_TABLES) {
            copyRows(from, to, table, "user_id", user);
        }
    }

    private static void deleteUnit(Connection shard, long user) throws SQLException {
        for (String table : MEMBER_TABLES) {
            delete(shard, "delete from " + table + " where user_id = ?", user);
        }
        delete(shard, "delete from app_user where id = ?", user);
    }

    private static void delete(Connection shard, String sql, long user) throws SQLException {
        try (PreparedStatement ps = shard.prepareStatement(sql)) {
            ps.setLong(1, user);
            ps.executeUpdate();
        }
    }

    private static void copyRows(Connection from, Connection to, String table, String keyColumn, long user)
            throws SQLException {
        try (PreparedStatement select = from.prepareStatement("select * from " + table + " where " + keyColumn + " = ?")) {
            select.setLong(1, user);
            try (ResultSet rows = select.executeQuery()) {
                ResultSetMetaData meta = rows.getMetaData();
                List<String> columns = new ArrayList<>();
                for (int c = 1; c <= meta.getColumnCount(); c++) {
                    columns.add(meta.getColumnName(c));
                }
                String insert = "insert into " + table + " (" + String.join(", ", columns) + ") values ("
                        + String.join(", ", Collections.nCopies(columns.size(), "?")) + ")";
                try (PreparedStatement ps = to.prepareStatement(insert)) {
                    while (rows.next()) {
                        for (int c = 1; c <= columns.size(); c++) {
                            ps.setObject(c, rows.getObject(c));
                        }
                        ps.executeUpdate();
                    }
                }
            }
        }
    }
}
