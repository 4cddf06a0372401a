package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.fasterxml.jackson.databind.JsonNode;
import org.assertj.core.data.Offset;
import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.samples.model.Country;
import org.atomicshards.samples.model.Photo;
import org.atomicshards.samples.model.Status;
import org.atomicshards.samples.model.User;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The advisor on a generated unsharded database with a known skew: users 1..100, user 1 with 500 statuses and every
 * other user with 5, so unit 1 holds 501 of the 1,095 rows; users 1-50 live in FR, 51-80 in JP, 81-100 in BR.
 */
class AdviseCommandTest {

    private static final int USERS = 100;
    private static final long TOTAL_ROWS = 501 + 99 * 6;
    private static String url;
    /** One JSON run shared by the tests that read it (each run boots Hibernate). */
    private static JsonNode json;

    @BeforeAll
    static void generateDatabase() throws Exception {
        url = "jdbc:h2:mem:advise-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (ShardedSessionFactory ignored = AtomicShards.configure().shard("single", url)
                .catalog("jdbc:h2:mem:advise-setup-" + UUID.randomUUID())
                .annotatedClasses(User.class, Status.class, Photo.class, Country.class).schemaAction("create").build()) {
            // only the schema
        }
        try (Connection connection = DriverManager.getConnection(url)) {
            try (PreparedStatement countries = connection.prepareStatement("insert into Country (code, name) values (?, ?)")) {
                for (String code : List.of("FR", "JP", "BR")) {
                    countries.setString(1, code);
                    countries.setString(2, code);
                    countries.executeUpdate();
                }
            }
            long statusId = 1;
            try (PreparedStatement users = connection.prepareStatement("insert into app_user (id, email, country_code) values (?, ?, ?)");
                 PreparedStatement statuses = connection.prepareStatement("insert into Status (id, text, time, user_id) values (?, ?, ?, ?)")) {
                for (long user = 1; user <= USERS; user++) {
                    users.setLong(1, user);
                    users.setString(2, "user" + user + "@example.com");
                    users.setString(3, user <= 50 ? "FR" : user <= 80 ? "JP" : "BR");
                    users.executeUpdate();
                    for (int s = 0; s < (user == 1 ? 500 : 5); s++) {
                        statuses.setLong(1, statusId++);
                        statuses.setString(2, "status");
                        statuses.setTimestamp(3, Timestamp.from(Instant.EPOCH));
                        statuses.setLong(4, user);
                        statuses.addBatch();
                    }
                    statuses.executeBatch();
                }
            }
        }
        CliRun run = advise("--json", "--candidate", "User.country.code");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        json = run.json();
    }

    private static CliRun advise(String... more) {
        List<String> args = new ArrayList<>(List.of("advise", "--url", url, "--shards", "2,4"));
        args.addAll(List.of(more));
        return CliRun.of(Map.of(), args.toArray(String[]::new));
    }

    private static JsonNode prediction(JsonNode candidate, int shards, String policy) {
        for (JsonNode p : candidate.get("predictions")) {
            if (p.get("shards").asInt() == shards && p.get("policy").asText().equals(policy)) {
                return p;
            }
        }
        throw new AssertionError("no prediction " + policy + " x " + shards);
    }

    private static long[] longs(JsonNode array) {
        long[] values = new long[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asLong();
        }
        return values;
    }

    /** Rows per shard as a real factory with this policy on four shards routes the users. */
    private static long[] routedByTheRuntime(Policy policy) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().virtualShards(1024)
                .catalog("jdbc:h2:mem:advise-oracle-" + UUID.randomUUID())
                .annotatedClasses(User.class, Status.class, Photo.class, Country.class)
                .policy(User.class, policy).property("atomicshards.boot_connection_check", "false");
        for (int i = 0; i < 4; i++) {
            builder.shard("s" + i, "jdbc:h2:mem:advise-oracle-" + UUID.randomUUID());
        }
        long[] rows = new long[4];
        try (ShardedSessionFactory shards = builder.build()) {
            for (long user = 1; user <= USERS; user++) {
                String shard = shards.shardFor(User.class, user).orElseThrow().name();
                rows[Integer.parseInt(shard.substring(1))] += user == 1 ? 501 : 6;
            }
        }
        return rows;
    }

    @Test
    void declaredKeyCountsKeysRowsAndTheLargestUnit() {
        JsonNode declared = json.get("candidates").get(0);
        assertThat(declared.get("unit").asText()).isEqualTo(User.class.getName());
        assertThat(declared.get("key").asText()).isEqualTo("id");
        assertThat(declared.get("declared").asBoolean()).isTrue();
        assertThat(declared.get("distinctKeys").asLong()).isEqualTo(100);
        assertThat(declared.get("rows").asLong()).isEqualTo(TOTAL_ROWS);
        assertThat(declared.get("largestUnitKey").asText()).isEqualTo("1");
        assertThat(declared.get("largestUnitRows").asLong()).isEqualTo(501);
        assertThat(declared.get("largestUnitShare").asDouble()).isCloseTo(501.0 / 1095, Offset.offset(1e-4));
        assertThat(declared.get("warnings")).hasSize(1);
        assertThat(declared.get("warnings").get(0).asText()).contains("45.8%").contains("more than 1/4");
    }

    @Test
    void rangeOnTheMonotonicKeyPutsTheHotUnitOnTheFirstShardAndNewKeysOnTheLast() {
        JsonNode range = prediction(json.get("candidates").get(0), 4, "range");

        // ranges 1-25, 26-50, 51-75, 76-100: unit 1 (501 rows) and 24 units of 6 rows on s0, 25 units on each other
        assertThat(longs(range.get("rowsPerShard"))).containsExactly(645, 150, 150, 150);
        assertThat(longs(range.get("unitsPerShard"))).containsExactly(25, 25, 25, 25);
        assertThat(range.get("skew").get("maxOverMin").asDouble()).isEqualTo(4.3);
        double mean = 1095 / 4.0;
        double sd = Math.sqrt((Math.pow(645 - mean, 2) + 3 * Math.pow(150 - mean, 2)) / 4);
        assertThat(range.get("skew").get("coefficientOfVariation").asDouble()).isCloseTo(sd / mean, Offset.offset(1e-4));
        assertThat(range.get("note").asText()).contains("every new unit (key above 100) to the last shard");
        assertThat(range.get("newUnitsShard").asText()).isEqualTo("s3");
    }

    @Test
    void hashAndConsistentHashPredictWhatTheRuntimeRoutes() {
        JsonNode declared = json.get("candidates").get(0);

        assertThat(longs(prediction(declared, 4, "hash").get("rowsPerShard"))).containsExactly(routedByTheRuntime(Policies.hash()));
        assertThat(longs(prediction(declared, 4, "consistent_hash").get("rowsPerShard")))
                .containsExactly(routedByTheRuntime(Policies.consistentHash(150)));
    }

    @Test
    void aCandidateKeyOnTheRootRegroupsTheUnits() {
        JsonNode candidates = json.get("candidates");

        assertThat(candidates).hasSize(2);
        JsonNode country = candidates.get(1);
        assertThat(country.get("key").asText()).isEqualTo("country.code");
        assertThat(country.get("declared").asBoolean()).isFalse();
        assertThat(country.get("distinctKeys").asLong()).isEqualTo(3);
        assertThat(country.get("rows").asLong()).isEqualTo(TOTAL_ROWS);
        assertThat(country.get("largestUnitKey").asText()).isEqualTo("FR");
        assertThat(country.get("largestUnitRows").asLong()).isEqualTo(501 + 49 * 6);
        assertThat(prediction(country, 2, "range").get("note").asText()).contains("range needs a numeric key");
        long[] hash = longs(prediction(country, 2, "hash").get("rowsPerShard"));
        assertThat(hash[0] + hash[1]).isEqualTo(TOTAL_ROWS);
    }

    @Test
    void referenceDataAndTheTextTable() {
        CliRun run = advise();

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("unit User, key id (declared): 100 distinct keys, 1,095 rows; largest unit 1 with 501 rows (45.8%)")
                .containsPattern("4\\s+range\\s+4\\.300\\s+")
                .contains("645 150 150 150")
                .containsPattern("Country\\s+Country\\s+3\\s+reference data: copy to every shard");
    }

    @Test
    void anUnknownCandidateIsAUsageError() {
        CliRun run = advise("--candidate", "Order.total");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("error: Option --candidate 'Order.total' names no root of the model").doesNotContain("\tat ");
    }
}
