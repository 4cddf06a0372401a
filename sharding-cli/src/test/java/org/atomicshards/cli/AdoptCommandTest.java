package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code adopt} on one unsharded H2 database holding every row of the samples' model (as before sharding): the dry
 * run, the adoption, then {@code add-shard} and {@code split} moving units out; a database with rows that have no key
 * refused with every problem listed and exit code 1; a settings file with several shards and no {@code --shard} a
 * usage error.
 */
class AdoptCommandTest {

    private static final int USERS = 40;

    @TempDir
    Path directory;

    private String singleUrl;
    private Path settings;

    @BeforeEach
    void writeOneDatabase() throws Exception {
        SampleShards sample = SampleShards.create(directory, false, USERS);
        singleUrl = "jdbc:h2:mem:single-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        SingleDatabase.copy(sample, singleUrl);
        settings = settings("s0=" + singleUrl);
    }

    private Path settings(String... shards) throws Exception {
        List<String> ids = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (String shard : shards) {
            String id = shard.substring(0, shard.indexOf('='));
            ids.add(id);
            text.append("atomicshards.shard.").append(id).append(".url=").append(shard.substring(id.length() + 1))
                    .append('\n');
        }
        text.append("atomicshards.shards=").append(String.join(",", ids)).append('\n')
                .append("atomicshards.virtual_shards=64\n")
                .append("atomicshards.catalog.url=jdbc:h2:mem:adopt-catalog-").append(UUID.randomUUID())
                .append(";DB_CLOSE_DELAY=-1\n")
                .append("atomicshards.unit.User.policy=hash\n")
                .append("atomicshards.unit.User.key_generation=sequence\n");
        Path file = directory.resolve("adopt-" + UUID.randomUUID() + ".properties");
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private CliRun run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--config");
        all.add(settings.toString());
        return CliRun.of(Map.of(), all.toArray(String[]::new));
    }

    private long largestUserId() throws SQLException {
        try (Connection connection = DriverManager.getConnection(singleUrl);
             Statement statement = connection.createStatement();
             var rs = statement.executeQuery("select max(id) from app_user")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void adoptsTheDatabaseThenAddShardAndSplitMoveUnitsOut() throws Exception {
        long largest = largestUserId();

        CliRun dryRun = run("adopt", "--dry-run");
        assertThat(dryRun.exitCode()).as(dryRun.toString()).isZero();
        assertThat(dryRun.out()).contains("shard s0 can be adopted: it would own all 64 virtual shards")
                .contains("dry run, nothing was changed")
                .contains("ids of User: largest stored " + largest + ", the library's start at " + (largest + 1));

        CliRun adopt = run("adopt", "--json");
        assertThat(adopt.exitCode()).as(adopt.toString()).isZero();
        JsonNode report = adopt.json();
        assertThat(report.get("applied").asBoolean()).isTrue();
        assertThat(report.get("virtualShards").asInt()).isEqualTo(64);
        assertThat(report.get("nextIds").get("org.atomicshards.samples.model.User").asLong()).isEqualTo(largest + 1);
        assertThat(report.get("problems")).isEmpty();

        CliRun add = run("add-shard", "--id", "s1", "--url", "jdbc:h2:mem:adopt-s1-" + UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1");
        assertThat(add.exitCode()).as(add.toString()).isZero();
        CliRun split = run("split", "--from", "s0", "--to", "s1");
        assertThat(split.exitCode()).as(split.toString()).isZero();

        CliRun status = run("status", "--json");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        long users = 0;
        for (JsonNode shard : status.json().get("shards")) {
            assertThat(shard.get("virtualShards").asInt()).as(shard.toString()).isEqualTo(32);
            long held = shard.get("rows").get("org.atomicshards.samples.model.User").asLong();
            assertThat(held).as("users on " + shard.get("id")).isPositive();
            users += held;
        }
        assertThat(users).isEqualTo(USERS);
        CliRun verify = run("verify");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();

        CliRun again = run("adopt");
        assertThat(again.exitCode()).as(again.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(again.err()).startsWith("error: Cannot adopt the database of shard 's0' as the first shard: it "
                + "owns 32 of the 64 virtual shards").hasLineCount(1);
    }

    @Test
    void rowsWithoutKeyAreRefusedWithEveryProblemAndNothingChanges() throws Exception {
        try (Connection connection = DriverManager.getConnection(singleUrl);
             Statement statement = connection.createStatement()) {
            statement.execute("alter table Status alter column user_id set null");
            statement.execute("alter table Photo alter column user_id set null");
            statement.execute("update Status set user_id = null where id in (select min(id) from Status)");
            statement.execute("update Photo set user_id = null where id in (select min(id) from Photo)");
        }

        CliRun adopt = run("adopt");

        assertThat(adopt.exitCode()).as(adopt.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(adopt.out()).startsWith("cannot adopt shard s0; nothing was changed. 2 problem(s):")
                .contains("table Status has rows whose key column user_id is null")
                .contains("table Photo has rows whose key column user_id is null");
        CliRun status = run("operations");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        try (Connection connection = DriverManager.getConnection(singleUrl);
             var rs = connection.getMetaData().getTables(null, null, "AS_OWNERSHIP", null)) {
            assertThat(rs.next()).as("the fence's tables after a refusal").isFalse();
        }
    }

    @Test
    void migrateCheckSaysWhetherTheSchemaMatchesTheModel() throws Exception {
        CliRun matching = run("migrate", "check");
        assertThat(matching.exitCode()).as(matching.toString()).isZero();
        assertThat(matching.out()).startsWith("the schema of 1 shard(s) [s0] matches the model");

        try (Connection connection = DriverManager.getConnection(singleUrl);
             Statement statement = connection.createStatement()) {
            statement.execute("alter table Status alter column user_id set null");
            statement.execute("update Status set user_id = null where id in (select min(id) from Status)");
        }
        CliRun gaps = run("migrate", "check", "--json");

        assertThat(gaps.exitCode()).as(gaps.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(gaps.json().get("matches").asBoolean()).isFalse();
        List<String> found = new ArrayList<>();
        gaps.json().get("gaps").forEach(gap -> found.add(gap.get("kind").asText() + " " + gap.get("table").asText()
                + "." + gap.get("column").asText() + " " + gap.get("shard").asText()));
        assertThat(found).containsExactly("KEY_VALUES_MISSING Status.user_id s0", "KEY_COLUMN_NULLABLE Status.user_id s0");
    }

    @Test
    void migratePlanWritesTheMigrationsThatCloseTheGaps() throws Exception {
        CliRun noTool = run("migrate", "plan");
        assertThat(noTool.exitCode()).as(noTool.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(noTool.err()).contains("--flyway DIR, --liquibase FILE");
        try (Connection connection = DriverManager.getConnection(singleUrl);
             Statement statement = connection.createStatement()) {
            statement.execute("alter table Status alter column user_id set null");
        }
        Path flyway = directory.resolve("db/migration");
        Files.createDirectories(flyway);
        Files.writeString(flyway.resolve("V7__earlier.sql"), "-- the application's last migration\n");

        CliRun plan = run("migrate", "plan", "--flyway", flyway.toString(), "--liquibase",
                directory.resolve("plan.yaml").toString(), "--batch-size", "10");

        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        assertThat(plan.out()).contains("shard_keys_not_null", "V8__shard_keys_not_null.sql", "plan.yaml");
        assertThat(Files.readString(flyway.resolve("V8__shard_keys_not_null.sql")))
                .contains("ALTER TABLE \"STATUS\" ALTER COLUMN \"USER_ID\" SET NOT NULL");
        org.flywaydb.core.Flyway.configure().dataSource(singleUrl, null, null).baselineOnMigrate(true)
                .baselineVersion("7").locations("filesystem:" + flyway).load().migrate();
        CliRun check = run("migrate", "check");
        assertThat(check.exitCode()).as(check.toString()).isZero();

        CliRun nothing = run("migrate", "plan", "--flyway", flyway.toString());
        assertThat(nothing.exitCode()).as(nothing.toString()).isZero();
        assertThat(nothing.out()).startsWith("nothing to plan: the schema of shard s0 matches the model");
        CliRun unknown = run("migrate", "plan", "--flyway", flyway.toString(), "--shard", "s9");
        assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("--shard s9 is not one of the shards [s0]");

        try (Connection connection = DriverManager.getConnection(singleUrl);
             Statement statement = connection.createStatement()) {
            statement.execute("alter table Status alter column user_id set null");
            statement.execute("update Status set user_id = null where id in (select min(id) from Status)");
        }
        CliRun unfillable = run("migrate", "plan", "--flyway", directory.resolve("other").toString());
        assertThat(unfillable.exitCode()).as(unfillable.toString()).isEqualTo(ExitCodes.FAILED);
        assertThat(unfillable.err()).contains("Status.user_id", "Write that step by hand");
        assertThat(directory.resolve("other")).doesNotExist();
    }

    @Test
    void severalShardsNeedTheShardNamed() throws Exception {
        settings = settings("s0=" + singleUrl, "s1=jdbc:h2:mem:adopt-other-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

        CliRun adopt = run("adopt", "--dry-run");

        assertThat(adopt.exitCode()).as(adopt.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(adopt.err()).startsWith("error: The settings file lists the shards [s0, s1] in atomicshards.shards; adopt takes one. Fix: "
                + "name it with --shard").hasLineCount(1);
    }
}
