package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import java.util.stream.LongStream;

import com.fasterxml.jackson.databind.JsonNode;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.samples.model.User;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerifyCommandTest {

    @TempDir
    Path directory;

    @Test
    void consistentShardsPass() throws Exception {
        SampleShards sample = SampleShards.create(directory, false, 60);

        CliRun run = CliRun.of(sample.environment(), "verify", "--config", sample.settingsFile.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).startsWith("checked 60 units (3 entity types) and 1 reference-data types on 4 shards: all consistent");
    }

    @Test
    void misplacedUnitsOrphansAndDifferingReferenceDataAreListedWithExitCode1() throws Exception {
        SampleShards sample = SampleShards.create(directory, false, 60);
        long misplaced;
        String home;
        String elsewhere;
        long orphan;
        String orphanHome;
        try (ShardedSessionFactory shards = sample.boot("none")) {
            misplaced = sample.userIds.get(0);
            home = shards.shardFor(User.class, misplaced).orElseThrow().name();
            elsewhere = home.equals("s0") ? "s1" : "s0";
            orphan = LongStream.range(1_000_000, 2_000_000).filter(k -> !sample.userIds.contains(k)).findFirst().orElseThrow();
            orphanHome = shards.shardFor(User.class, orphan).orElseThrow().name();
        }
        // a second copy of a unit's root on a shard the map does not name
        execute(sample, elsewhere, "insert into app_user (id, email) values (?, 'copy@example.com')", misplaced);
        // a photo whose user does not exist, on the shard its key maps to
        execute(sample, orphanHome, "insert into Photo (id, blobUrl, user_id) values ('" + UUID.randomUUID()
                + "', 'https://blobs.example.com/orphan', ?)", orphan);
        execute(sample, "s2", "update Country set name = 'Japon' where code = ?", "JP");

        CliRun run = CliRun.of(sample.environment(), "verify", "--config", sample.settingsFile.toString(), "--json");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        JsonNode json = run.json();
        assertThat(json.get("ok").asBoolean()).isFalse();
        assertThat(json.get("problemCount").asInt()).isEqualTo(3);
        assertThat(json.get("problems")).extracting(p -> p.get("kind").asText(), p -> p.get("key").asText(null),
                        p -> p.get("shard").asText(), p -> p.get("expected").asText())
                .containsExactlyInAnyOrder(
                        tuple("MISPLACED", Long.toString(misplaced), elsewhere, home),
                        tuple("ORPHAN", Long.toString(orphan), orphanHome, orphanHome),
                        tuple("REFERENCE_DATA_DIFFERS", null, "s2", "s0"));

        CliRun text = CliRun.of(sample.environment(), "verify", "--config", sample.settingsFile.toString());
        assertThat(text.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(text.out()).contains("3 problem(s)").contains("MISPLACED").contains("ORPHAN")
                .contains("REFERENCE_DATA_DIFFERS").contains("1 row(s) only on s2, 1 row(s) only on s0");
    }

    @Test
    void aShardThatCannotBeReadIsListedWithExitCode4AndAProblemInTheDataStillGivesExitCode1() throws Exception {
        SampleShards sample = SampleShards.create(directory, false, 60);
        String settings = java.nio.file.Files.readString(sample.settingsFile)
                .replaceAll("atomicshards.shard.s3.url=.*", "atomicshards.shard.s3.url=jdbc:h2:tcp://127.0.0.1:1/nowhere")
                + "\natomicshards.pool.connection_timeout_ms=2000\n";
        Path down = directory.resolve("s3-down.properties");
        java.nio.file.Files.writeString(down, settings);

        CliRun unreadable = CliRun.of(sample.environment(), "verify", "--config", down.toString(), "--json");

        assertThat(unreadable.exitCode()).as(unreadable.toString()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(unreadable.json().get("problems")).isNotEmpty()
                .allSatisfy(p -> assertThat(p.get("kind").asText()).isEqualTo("UNREADABLE"))
                .allSatisfy(p -> assertThat(p.get("shard").asText()).isEqualTo("s3"));

        execute(sample, "s2", "update Country set name = 'Japon' where code = ?", "JP");
        CliRun both = CliRun.of(sample.environment(), "verify", "--config", down.toString(), "--json");
        assertThat(both.exitCode()).as(both.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(both.json().get("problems")).extracting(p -> p.get("kind").asText())
                .contains("UNREADABLE", "REFERENCE_DATA_DIFFERS");
    }

    private static void execute(SampleShards sample, String shard, String sql, Object parameter) throws SQLException {
        try (Connection connection = DriverManager.getConnection(sample.settings.get("atomicshards.shard." + shard + ".url"),
                "app", sample.password);
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setObject(1, parameter);
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }
}
