package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;
import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.samples.model.Country;
import org.atomicshards.samples.model.Photo;
import org.atomicshards.samples.model.Status;
import org.atomicshards.samples.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ReplicaServers;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The tool's commands through {@code CommandLine.execute} against shards and a catalog on a real database server, one
 * operator's session in order: {@code schema create}, the samples' data written through the library, {@code status},
 * {@code add-shard}, {@code split} and {@code move} onto the new shard, {@code verify}, {@code rebalance --dry-run},
 * {@code operations}, refused commands, {@code schema validate} with the added shard, a stopped move listed and
 * resumed, {@code drain} of the added shard and {@code rebalance}, and a shard that cannot be reached. Each step checks
 * its exit code and what it printed against what the shards hold.
 *
 * <p>Shards {@code s0} and {@code s1} and the catalog are named by URLs that carry a login and a secret password
 * ({@code ?user=..&password=..}); the added shard {@code s2} gets its password from
 * {@code ATOMICSHARDS_SHARD_S2_PASSWORD}. The secret must appear in no output of any command.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class CliContract {

    /** Written into the URLs and the environment; must never be printed. */
    protected static final String SECRET = "Cli7UrlSecret";
    private static final int VIRTUAL_SHARDS = 16;
    private static final int USERS = 60;
    private static final String USER = User.class.getName();

    protected abstract DatabaseKind kind();

    /**
     * A login of the server that {@link #SECRET} opens, with every right on the given databases (called once, after
     * they exist).
     */
    protected abstract String login(List<ShardDatabase> databases) throws Exception;

    /** Removes what {@link #login} created, if anything (called once, before the databases are dropped). */
    protected void dropLogin() throws Exception {
    }

    private ShardDatabases dbs;
    private String login;
    private Path settingsFile;
    private Map<String, String> environment;
    /** Users written per shard by the library, before any command moved them. */
    private Map<String, long[]> written;
    private final List<Long> userIds = new ArrayList<>();
    /** Every run, for the check that no output shows the secret. */
    private final List<CliRun> runs = new ArrayList<>();

    @BeforeAll
    void databases() throws Exception {
        // s0, s1: the configured shards; s2: added by add-shard; s3: the catalog
        dbs = ShardDatabases.create(kind(), 4);
        login = login(dbs.shards());
        environment = Map.of("ATOMICSHARDS_SHARD_S2_USER", login, "ATOMICSHARDS_SHARD_S2_PASSWORD", SECRET);
        settingsFile = Files.createTempFile("cli-it-", ".properties");
        try (Writer writer = Files.newBufferedWriter(settingsFile, StandardCharsets.UTF_8)) {
            for (Map.Entry<String, String> setting : settings().entrySet()) {
                writer.write(setting.getKey() + "=" + setting.getValue() + "\n"); // no value needs escaping
            }
        }
    }

    @AfterAll
    void dropDatabases() throws Exception {
        try {
            dropLogin();
        } finally {
            dbs.close();
            Files.deleteIfExists(settingsFile);
        }
    }

    private String url(int database) {
        return dbs.shards().get(database).url();
    }

    private String urlWithSecret(int database) {
        return url(database) + "?user=" + login + "&password=" + SECRET;
    }

    private Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("atomicshards.shards", "s0,s1");
        settings.put("atomicshards.shard.s0.url", urlWithSecret(0));
        settings.put("atomicshards.shard.s1.url", urlWithSecret(1));
        settings.put("atomicshards.catalog.url", urlWithSecret(3));
        settings.put("atomicshards.virtual_shards", Integer.toString(VIRTUAL_SHARDS));
        settings.put("atomicshards.unit.User.policy", "hash");
        settings.put("atomicshards.unit.User.key_generation", "sequence");
        if (ReplicaServers.enabled()) {
            // read from by no command (no replica reads are asked for): status lists it
            settings.put("atomicshards.shard.s0.replica.r1.url",
                    ReplicaServers.of(kind()).replicaUrl(dbs.shards().get(0)));
        }
        return settings;
    }

    private CliRun run(String command, String... more) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.add("--config");
        args.add(settingsFile.toString());
        args.addAll(List.of(more));
        CliRun run = CliRun.of(environment, args.toArray(String[]::new));
        runs.add(run);
        return run;
    }

    /** {@code status --json}, checked to have answered. */
    private JsonNode status() {
        CliRun status = run("status", "--json");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        return status.json();
    }

    /** Per shard id: virtual shards owned and users held, as {@code status --json} reports them. */
    private Map<String, long[]> shards() {
        Map<String, long[]> shards = new LinkedHashMap<>();
        for (JsonNode shard : status().get("shards")) {
            assertThat(shard.get("reachable").asBoolean()).as(shard.toString()).isTrue();
            shards.put(shard.get("id").asText(), new long[] {shard.get("virtualShards").asLong(),
                    shard.get("rows").get(USER).asLong()});
        }
        return shards;
    }

    private static String oneLine(String text) {
        assertThat(text).hasLineCount(1);
        return text;
    }

    @Test
    @Order(1)
    void schemaCreateMakesTheTablesOnEveryShard() {
        CliRun create = run("schema create", "--yes");

        assertThat(create.exitCode()).as(create.toString()).isZero();
        assertThat(create.out()).isEqualTo("schema create: done on 2 shards [s0, s1]" + System.lineSeparator());
        CliRun validate = run("schema validate", "--json");
        assertThat(validate.exitCode()).as(validate.toString()).isZero();
        assertThat(validate.json().get("ok").asBoolean()).isTrue();
    }

    @Test
    @Order(2)
    void theLibraryWritesTheSampleData() {
        try (ShardedSessionFactory shards = boot("validate")) {
            written = SampleShards.write(shards, USERS, userIds);
        }

        assertThat(written.keySet()).containsExactly("s0", "s1");
        assertThat(written.values()).allSatisfy(counts -> assertThat(counts[0]).as("users").isPositive());
    }

    @Test
    @Order(3)
    void statusShowsTheShardsTheirVirtualShardsAndUnitsWithoutTheSecret() {
        JsonNode status = status();

        assertThat(status.get("virtualShards").asInt()).isEqualTo(VIRTUAL_SHARDS);
        assertThat(status.get("catalog").asText()).as("the URL without its credentials").isEqualTo(url(3));
        JsonNode shards = status.get("shards");
        assertThat(shards).extracting(shard -> shard.get("id").asText()).containsExactly("s0", "s1");
        for (int i = 0; i < 2; i++) {
            JsonNode shard = shards.get(i);
            String id = "s" + i;
            assertThat(shard.get("status").asText()).isEqualTo("ONLINE");
            assertThat(shard.get("reachable").asBoolean()).isTrue();
            assertThat(shard.get("url").asText()).as("the URL without its credentials").isEqualTo(url(i));
            assertThat(shard.get("virtualShards").asInt()).isEqualTo(VIRTUAL_SHARDS / 2);
            assertThat(shard.get("rows").get(USER).asLong()).isEqualTo(written.get(id)[0]);
            assertThat(shard.get("rows").get(Status.class.getName()).asLong()).isEqualTo(written.get(id)[1]);
            assertThat(shard.get("rows").get(Photo.class.getName()).asLong()).isEqualTo(written.get(id)[2]);
            assertThat(shard.get("rows").get(Country.class.getName()).asLong()).isEqualTo(3);
        }
        JsonNode unitsPerShard = status.get("units").get(0).get("unitsPerShard");
        assertThat(status.get("units").get(0).get("root").asText()).isEqualTo(USER);
        assertThat(unitsPerShard.get("s0").asLong()).isEqualTo(written.get("s0")[0]);
        assertThat(unitsPerShard.get("s1").asLong()).isEqualTo(written.get("s1")[0]);

        CliRun text = run("status");
        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out()).contains(url(0)).contains(url(1));
    }

    /** {@code status} asks each replica for its lag, with the shard's credentials, and shows no secret. */
    @Test
    @Order(3)
    void statusListsTheReplicasWithTheirStateAndLag() {
        assumeTrue(ReplicaServers.enabled(), "replica servers are started by .ci/replicas (atomicshards.it.replicas)");
        JsonNode replicas = status().get("replicas");

        assertThat(replicas).hasSize(1);
        JsonNode replica = replicas.get(0);
        assertThat(replica.get("shard").asText()).isEqualTo("s0");
        assertThat(replica.get("name").asText()).isEqualTo("r1");
        assertThat(replica.get("url").asText()).isEqualTo(ReplicaServers.of(kind()).replicaUrl(dbs.shards().get(0)));
        assertThat(replica.get("state").asText()).isEqualTo(replicaStateForTheLogin());
        if (replicaStateForTheLogin().equals("UP")) {
            assertThat(replica.get("lagMillis").asLong()).isGreaterThanOrEqualTo(0);
        } else {
            assertThat(replica.get("error").asText()).as("the missing right").contains("MONITOR");
        }
        CliRun text = run("status");
        assertThat(text.out()).contains("replica s0/r1 (" + ReplicaServers.of(kind()).replicaUrl(dbs.shards().get(0))
                + "): " + replicaStateForTheLogin());
    }

    /**
     * The state {@code status} reports for the running replica when asked with {@link #login}: UP where the login
     * may read the replication state, DOWN (naming the missing right) where it may not.
     */
    protected abstract String replicaStateForTheLogin();

    @Test
    @Order(4)
    void addShardRecordsTheNewShardWithItsPasswordFromTheEnvironment() {
        CliRun add = run("add-shard", "--id", "s2", "--url", url(2), "--json");

        assertThat(add.exitCode()).as(add.toString()).isZero();
        JsonNode json = add.json();
        assertThat(json.get("shard").asText()).isEqualTo("s2");
        assertThat(json.get("url").asText()).isEqualTo(url(2));
        assertThat(json.get("referenceRowsCopied").get(Country.class.getName()).asLong()).isEqualTo(3);
        assertThat(json.get("referenceDataDivergences")).isEmpty();
        Map<String, long[]> shards = shards();
        assertThat(shards.keySet()).containsExactly("s0", "s1", "s2");
        assertThat(shards.get("s2")).as("it owns nothing yet").containsExactly(0, 0);
    }

    @Test
    @Order(5)
    void splitAndMoveCarryVirtualShardsAndTheirUnitsToTheNewShard() {
        CliRun split = run("split", "--from", "s0", "--to", "s2");

        assertThat(split.exitCode()).as(split.toString()).isZero();
        assertThat(oneLine(split.out())).startsWith("moved virtual shards ").contains(" to s2: ");
        Map<String, long[]> afterSplit = shards();
        assertThat(afterSplit.get("s0")[0]).isEqualTo(VIRTUAL_SHARDS / 4);
        assertThat(afterSplit.get("s2")[0]).isEqualTo(VIRTUAL_SHARDS / 4);
        assertThat(afterSplit.get("s0")[1] + afterSplit.get("s2")[1]).isEqualTo(written.get("s0")[0]);
        assertThat(afterSplit.get("s1")[1]).isEqualTo(written.get("s1")[0]);

        int virtualShard = busiestVirtualShardOf("s1");
        CliRun move = run("move", "--virtual-shards", Integer.toString(virtualShard), "--to", "s2", "--json");

        assertThat(move.exitCode()).as(move.toString()).isZero();
        JsonNode report = move.json();
        assertThat(report.get("target").asText()).isEqualTo("s2");
        assertThat(report.get("virtualShards")).extracting(JsonNode::asInt).containsExactly(virtualShard);
        Map<String, long[]> afterMove = shards();
        assertThat(afterMove.get("s1")[0]).isEqualTo(VIRTUAL_SHARDS / 2 - 1);
        assertThat(afterMove.get("s2")[0]).isEqualTo(VIRTUAL_SHARDS / 4 + 1);
        assertThat(report.get("units").asLong()).as("the users that left s1").isPositive()
                .isEqualTo(afterSplit.get("s1")[1] - afterMove.get("s1")[1])
                .isEqualTo(afterMove.get("s2")[1] - afterSplit.get("s2")[1]);
    }

    /** The virtual shard of {@code shard} that holds the most users. */
    private int busiestVirtualShardOf(String shard) {
        try (ShardedSessionFactory shards = boot("none")) {
            Map<Integer, Integer> users = new TreeMap<>();
            for (long id : userIds) {
                int virtualShard = ((ShardRouterImpl) shards.router()).unitOf(User.class).placement().virtualShardOf(id);
                if (shards.directory().shardOf(virtualShard).name().equals(shard)) {
                    users.merge(virtualShard, 1, Integer::sum);
                }
            }
            return users.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        }
    }

    /** A factory of the application on the settings file's shards, and on s2 once the catalog has it. */
    private ShardedSessionFactory boot(String schemaAction) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(User.class, Status.class, Photo.class, Country.class)
                .schemaAction(schemaAction)
                .property("atomicshards.shard.s2.user", login).property("atomicshards.shard.s2.password", SECRET);
        settings().forEach(builder::property);
        // the tool's resume command is under test: this application must not resume a stopped operation before it
        builder.property("atomicshards.resharding.auto_resume", "false");
        return builder.build();
    }

    @Test
    @Order(6)
    void verifyCountsEveryUnitOnceAndFindsNothingWrong() throws SQLException {
        CliRun verify = run("verify");

        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).startsWith("checked " + USERS + " units").contains("on 3 shards").contains("all consistent");
        CliRun json = run("verify", "--json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.json().get("ok").asBoolean()).isTrue();
        assertThat(json.json().get("units").asLong()).isEqualTo(USERS);
        assertThat(json.json().get("problemCount").asInt()).isZero();
        long held = 0;
        for (JsonNode count : status().get("units").get(0).get("unitsPerShard")) {
            held += count.asLong();
        }
        assertThat(held).as("each user on exactly one shard").isEqualTo(USERS);
        assertThat(usersInDatabases()).as("read with plain JDBC").isEqualTo(USERS);
    }

    /** The rows of {@code app_user} in the three shard databases, read with plain JDBC. */
    private long usersInDatabases() throws SQLException {
        long users = 0;
        for (String shard : List.of("s0", "s1", "s2")) {
            try (Connection connection = dbs.connect(shard); Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("select count(*) from app_user")) {
                rows.next();
                users += rows.getLong(1);
            }
        }
        return users;
    }

    @Test
    @Order(7)
    void rebalanceDryRunPlansAnEvenSpreadAndChangesNothing() {
        Map<String, long[]> before = shards();
        int mapVersion = status().get("mapVersion").asInt();

        CliRun plan = run("rebalance", "--dry-run", "--json");

        assertThat(plan.exitCode()).as(plan.toString()).isZero();
        JsonNode json = plan.json();
        assertThat(json.get("dryRun").asBoolean()).isTrue();
        before.forEach((id, counts) -> assertThat(json.get("before").get(id).asLong()).as(id).isEqualTo(counts[0]));
        List<Integer> after = new ArrayList<>();
        json.get("after").forEach(count -> after.add(count.asInt()));
        assertThat(after).hasSize(3).allSatisfy(count -> assertThat(count).isBetween(5, 6));
        assertThat(after.stream().mapToInt(Integer::intValue).sum()).isEqualTo(VIRTUAL_SHARDS);
        assertThat(json.get("moves")).isNotEmpty().allSatisfy(move ->
                assertThat(move.get("source").asText()).isEqualTo("s1"));
        Map<String, long[]> unchanged = shards();
        assertThat(unchanged.keySet()).containsExactlyElementsOf(before.keySet());
        before.forEach((id, counts) -> assertThat(unchanged.get(id)).as(id).containsExactly(counts));
        assertThat(status().get("mapVersion").asInt()).isEqualTo(mapVersion);
    }

    @Test
    @Order(8)
    void operationsShowsNothingInProgress() {
        CliRun text = run("operations");
        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out()).isEqualTo("no operation in progress" + System.lineSeparator());

        CliRun json = run("operations", "--json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.json()).isEmpty();
    }

    @Test
    @Order(9)
    void refusedOperationsGiveTheirExitCodeAndOneLineAndChangeNothing() {
        Map<String, long[]> before = shards();

        CliRun unknownTarget = run("move", "--virtual-shards", "0-3", "--to", "nowhere");
        assertThat(unknownTarget.exitCode()).as(unknownTarget.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(oneLine(unknownTarget.err())).startsWith("error: Unknown target shard 'nowhere'");

        CliRun takenId = run("add-shard", "--id", "s1", "--url", url(2));
        assertThat(takenId.exitCode()).as(takenId.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(oneLine(takenId.err())).startsWith("error: ").contains("s1");

        CliRun intoItself = run("merge", "--from", "s2", "--into", "s2");
        assertThat(intoItself.exitCode()).as(intoItself.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(oneLine(intoItself.err())).startsWith("error: Cannot merge shard 's2' into itself");

        Map<String, long[]> after = shards();
        before.forEach((id, counts) -> assertThat(after.get(id)).as(id).containsExactly(counts));
    }

    @Test
    @Order(10)
    void schemaValidateChecksTheAddedShardToo() {
        CliRun validate = run("schema validate", "--json");

        assertThat(validate.exitCode()).as(validate.toString()).isZero();
        assertThat(validate.json().get("ok").asBoolean()).isTrue();
        assertThat(validate.json().get("shards")).extracting(JsonNode::asText).containsExactly("s0", "s1", "s2");
    }

    @Test
    @Order(11)
    void aStoppedMoveIsListedAndResumed() throws InterruptedException, SQLException {
        int virtualShard = busiestVirtualShardOf("s1");
        MoveFaults.install(step -> {
            if (step.equals("after-copy")) {
                throw new IllegalStateException("the source went away (played)");
            }
        });
        CliRun move;
        try {
            move = run("move", "--virtual-shards", Integer.toString(virtualShard), "--to", "s0");
        } finally {
            MoveFaults.install(null);
        }

        assertThat(move.exitCode()).as(move.toString()).isEqualTo(ExitCodes.MOVE_FAILED);
        List<String> err = move.err().lines().toList();
        assertThat(err.get(err.size() - 1)).startsWith("error: Move ")
                .contains("the source went away (played)").contains("With this tool: atomicshards resume");
        CliRun operations = run("operations", "--json");
        assertThat(operations.exitCode()).as(operations.toString()).isZero();
        assertThat(operations.json()).hasSize(1);
        assertThat(operations.json().get(0).get("target").asText()).isEqualTo("s0");
        assertThat(operations.json().get(0).get("virtualShards").asText()).as("as ranges")
                .isEqualTo(Integer.toString(virtualShard));

        assertThat(operations.json().get(0).get("owner").isNull()).as("released as the run stopped").isTrue();
        CliRun resume = run("resume");

        assertThat(resume.exitCode()).as(resume.toString()).isZero();
        assertThat(resume.out()).startsWith("resumed and finished: moved virtual shards " + virtualShard + " to s0");
        assertThat(run("operations").out()).isEqualTo("no operation in progress" + System.lineSeparator());
        assertThat(run("verify").exitCode()).isZero();
        assertThat(usersInDatabases()).isEqualTo(USERS);
    }

    @Test
    @Order(12)
    void drainEmptiesTheAddedShardAndRebalanceEvensTheRest() throws SQLException {
        long onS2 = shards().get("s2")[1];

        CliRun drain = run("drain", "--shard", "s2", "--json");

        assertThat(drain.exitCode()).as(drain.toString()).isZero();
        long moved = 0;
        for (JsonNode report : drain.json().get("moves")) {
            moved += report.get("units").asLong();
        }
        assertThat(moved).isEqualTo(onS2);
        assertThat(shards().get("s2")).containsExactly(0, 0);

        CliRun rebalance = run("rebalance", "--json");
        assertThat(rebalance.exitCode()).as(rebalance.toString()).isZero();
        assertThat(rebalance.json().get("dryRun").asBoolean()).isFalse();
        Map<String, long[]> after = shards();
        assertThat(after.values()).allSatisfy(shard -> assertThat(shard[0]).isBetween(5L, 6L));
        assertThat(after.values().stream().mapToLong(shard -> shard[1]).sum()).isEqualTo(USERS);
        CliRun verify = run("verify");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).startsWith("checked " + USERS + " units").contains("all consistent");
        assertThat(usersInDatabases()).isEqualTo(USERS);
    }

    @Test
    @Order(13)
    void anUnreachableShardIsNamedWithoutItsPassword() throws IOException {
        // the same settings with s1 on a port where nothing listens
        Path unreachable = Files.createTempFile("cli-it-down-", ".properties");
        try {
            String down = onPortOne(urlWithSecret(1));
            assertThat(down).contains(SECRET);
            Files.writeString(unreachable, Files.readString(settingsFile).replace(urlWithSecret(1), down));

            CliRun status = CliRun.of(environment, "status", "--json", "--config", unreachable.toString());
            CliRun verify = CliRun.of(environment, "verify", "--config", unreachable.toString());
            runs.add(status);
            runs.add(verify);

            String redacted = onPortOne(url(1));
            assertThat(status.exitCode()).as(status.toString()).isEqualTo(ExitCodes.UNAVAILABLE);
            JsonNode s1 = status.json().get("shards").get(1);
            assertThat(s1.get("reachable").asBoolean()).isFalse();
            assertThat(s1.get("url").asText()).isEqualTo(redacted);
            assertThat(s1.get("error").asText()).startsWith("Shard 's1' (" + redacted + ") is unavailable");
            assertThat(verify.exitCode()).as(verify.toString()).isEqualTo(ExitCodes.UNAVAILABLE);
            assertThat(verify.out()).contains("UNREADABLE").contains("Shard 's1' (" + redacted + ") is unavailable");
        } finally {
            Files.delete(unreachable);
        }
    }

    /** {@code url} with its host and port replaced by 127.0.0.1:1, where nothing listens. */
    private static String onPortOne(String url) {
        return url.replaceFirst("//[^/]+/", "//127.0.0.1:1/");
    }

    @Test
    @Order(20)
    void noOutputEverShowedTheSecret() {
        assertThat(runs).hasSizeGreaterThan(10).allSatisfy(run ->
                assertThat(run.out() + run.err()).as(run.toString()).doesNotContain(SECRET));
    }

    @Test
    @Order(21)
    void theCatalogRecordsNoSecret() throws SQLException {
        List<String> tables = new ArrayList<>();
        try (Connection catalog = dbs.connect("s3")) {
            DatabaseMetaData metaData = catalog.getMetaData();
            String quote = metaData.getIdentifierQuoteString();
            try (ResultSet found = metaData.getTables(catalog.getCatalog(), catalog.getSchema(), "%", new String[] {"TABLE"})) {
                while (found.next()) {
                    tables.add(found.getString("TABLE_NAME"));
                }
            }
            for (String table : tables) {
                // an identifier the database itself listed, quoted; no value is written into the statement
                try (Statement statement = catalog.createStatement();
                     ResultSet rows = statement.executeQuery("select * from " + quote + table + quote)) {
                    while (rows.next()) {
                        for (int column = 1; column <= rows.getMetaData().getColumnCount(); column++) {
                            assertThat(String.valueOf(rows.getObject(column))).as(table).doesNotContain(SECRET);
                        }
                    }
                }
            }
        }
        assertThat(tables).as("the catalog's tables").isNotEmpty();
    }
}
