package org.atomicshards.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import com.fasterxml.jackson.databind.JsonNode;
import org.atomicshards.hibernate.internal.reshard.move.MoveFaults;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The resharding commands through {@code CommandLine.execute} on four H2 shards holding the samples' model (64
 * virtual shards, 16 per shard): each command's happy path checked against what the shards hold afterwards, and its
 * bad input (unknown shard, missing or malformed options, a conflicting operation) as one line with its exit code.
 */
class ReshardingCommandsTest {

    @TempDir
    Path directory;

    SampleShards sample;

    @BeforeEach
    void writeSample() throws Exception {
        sample = SampleShards.create(directory, false, 80);
    }

    @AfterEach
    void removeFaults() {
        MoveFaults.install(null);
    }

    private CliRun run(String command, String... more) {
        return sample.run(command, more);
    }

    /** Per shard: virtual shards owned and users held, as {@code status --json} reports them. */
    private Map<String, long[]> shards() {
        CliRun status = run("status", "--json");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        Map<String, long[]> shards = new LinkedHashMap<>();
        for (JsonNode shard : status.json().get("shards")) {
            shards.put(shard.get("id").asText(), new long[] {shard.get("virtualShards").asLong(),
                    shard.get("rows").get("org.atomicshards.samples.model.User").asLong()});
        }
        return shards;
    }

    private long users(String shard) {
        return sample.written.get(shard)[0];
    }

    private void assertConsistent() {
        CliRun verify = run("verify");
        assertThat(verify.exitCode()).as(verify.toString()).isZero();
        assertThat(verify.out()).startsWith("checked 80 units").contains("all consistent");
    }

    /** Virtual shards {@code from..to} that {@code owner} owned in the first map. */
    private List<Integer> ownedBy(String owner) {
        return IntStream.range(0, sample.initialOwners.size()).filter(v -> sample.initialOwners.get(v).equals(owner))
                .boxed().toList();
    }

    @Nested
    class Move {

        @Test
        void movesTheVirtualShardsAndTheirUnitsAndReportsThem() {
            List<Integer> moving = ownedBy("s0").subList(0, 4);
            String list = moving.get(0) + "," + moving.get(1) + "," + moving.get(2) + "-" + moving.get(2) + "," + moving.get(3);

            CliRun move = run("move", "--virtual-shards", list, "--to", "s1", "--batch", "2", "--json");

            assertThat(move.exitCode()).as(move.toString()).isZero();
            JsonNode report = move.json();
            Map<String, long[]> after = shards();
            assertThat(after.get("s0")[0]).isEqualTo(12);
            assertThat(after.get("s1")[0]).isEqualTo(20);
            assertThat(report.get("target").asText()).isEqualTo("s1");
            assertThat(report.get("virtualShards")).extracting(JsonNode::asInt).containsExactlyElementsOf(moving);
            assertThat(report.get("units").asLong()).as("the users that left s0")
                    .isEqualTo(users("s0") - after.get("s0")[1])
                    .isEqualTo(after.get("s1")[1] - users("s1"));
            assertThat(report.get("writePausesMillis")).as("two batches of two").hasSize(2);
            assertThat(report.get("mapVersion").asInt()).isGreaterThan(1);
            assertThat(move.err()).as("progress lines on stderr, not a bar: no terminal here")
                    .contains("move " + report.get("operationId").asText().substring(0, 8) + ": batch ")
                    .doesNotContain("\r");
            assertConsistent();
        }

        @Test
        void anUnknownTargetIsAUsageErrorAndNothingMoves() {
            CliRun move = run("move", "--virtual-shards", "0-3", "--to", "nowhere");

            assertThat(move.exitCode()).as(move.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(move.err()).startsWith("error: Unknown target shard 'nowhere'").hasLineCount(1);
            assertThat(shards().values()).allSatisfy(shard -> assertThat(shard[0]).isEqualTo(16));
        }

        @Test
        void aVirtualShardOutsideTheMapIsAUsageError() {
            CliRun move = run("move", "--virtual-shards", "60-64", "--to", "s1");

            assertThat(move.exitCode()).as(move.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(move.err()).startsWith("error: Virtual shard 64 does not exist: there are 64 (0 to 63)");
        }

        @Test
        void missingOrMalformedOptionsAreUsageErrorsBeforeAnythingBoots() {
            CliRun noList = run("move", "--to", "s1");
            assertThat(noList.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(noList.err()).startsWith("error: Missing required option: '--virtual-shards=LIST'");

            CliRun backwards = run("move", "--virtual-shards", "3-1", "--to", "s1");
            assertThat(backwards.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(backwards.err()).contains("'3-1' has the range 3-1 ends before it starts");

            CliRun notANumber = run("move", "--virtual-shards", "0,x", "--to", "s1");
            assertThat(notANumber.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(notANumber.err()).contains("'0,x' has 'x', which is not a number");

            CliRun badChunk = run("move", "--virtual-shards", "0", "--to", "s1", "--chunk", "5000");
            assertThat(badChunk.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(badChunk.err()).startsWith("error: Option --chunk: unitsPerChunk is 5000; it must be 1 to 1000");
        }
    }

    @Nested
    class SplitMergeDrain {

        @Test
        void splitMovesTheUpperHalfOfTheSource() {
            CliRun split = run("split", "--from", "s0", "--to", "s1");

            assertThat(split.exitCode()).as(split.toString()).isZero();
            List<Integer> upperHalf = ownedBy("s0").subList(8, 16);
            assertThat(split.out()).startsWith("moved virtual shards " + upperHalf.get(0) + "-" + upperHalf.get(7)
                    + " to s1: ");
            Map<String, long[]> after = shards();
            assertThat(after.get("s0")[0]).isEqualTo(8);
            assertThat(after.get("s1")[0]).isEqualTo(24);
            assertThat(after.get("s0")[1] + after.get("s1")[1]).isEqualTo(users("s0") + users("s1"));
        }

        @Test
        void splittingAnUnknownShardOrWithoutATargetIsAUsageError() {
            CliRun unknown = run("split", "--from", "s7", "--to", "s1");
            assertThat(unknown.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(unknown.err()).startsWith("error: Unknown shard 's7'").hasLineCount(1);

            CliRun noTarget = run("split", "--from", "s0");
            assertThat(noTarget.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(noTarget.err()).startsWith("error: Missing required option: '--to=SHARD'");
        }

        @Test
        void mergeEmptiesTheSourceIntoTheTarget() {
            CliRun merge = run("merge", "--from", "s3", "--into", "s2", "--json");

            assertThat(merge.exitCode()).as(merge.toString()).isZero();
            assertThat(merge.json().get("units").asLong()).isEqualTo(users("s3"));
            Map<String, long[]> after = shards();
            assertThat(after.get("s3")).containsExactly(0, 0);
            assertThat(after.get("s2")).containsExactly(32, users("s2") + users("s3"));
        }

        @Test
        void mergingAShardIntoItselfIsAUsageError() {
            CliRun merge = run("merge", "--from", "s3", "--into", "s3");

            assertThat(merge.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(merge.err()).startsWith("error: Cannot merge shard 's3' into itself").hasLineCount(1);
        }

        @Test
        void drainSpreadsTheShardOverTheOthers() {
            CliRun drain = run("drain", "--shard", "s3", "--json");

            assertThat(drain.exitCode()).as(drain.toString()).isZero();
            JsonNode moves = drain.json().get("moves");
            assertThat(moves).hasSize(3);
            long moved = 0;
            for (JsonNode move : moves) {
                moved += move.get("units").asLong();
            }
            assertThat(moved).isEqualTo(users("s3"));
            Map<String, long[]> after = shards();
            assertThat(after.get("s3")).containsExactly(0, 0);
            assertThat(List.of(after.get("s0")[0], after.get("s1")[0], after.get("s2")[0]))
                    .containsExactlyInAnyOrder(21L, 21L, 22L);
            assertConsistent();
        }

        @Test
        void drainingAnUnknownShardIsAUsageError() {
            CliRun drain = run("drain", "--shard", "s9");

            assertThat(drain.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(drain.err()).startsWith("error: Unknown shard 's9'; the configured shards are [s0, s1, s2, s3]");
        }
    }

    @Nested
    class Rebalance {

        @Test
        void dryRunPrintsThePlanAndChangesNothingThenTheRunEvensOut() {
            assertThat(run("merge", "--from", "s3", "--into", "s2").exitCode()).isZero();

            CliRun plan = run("rebalance", "--dry-run", "--json");

            assertThat(plan.exitCode()).as(plan.toString()).isZero();
            JsonNode json = plan.json();
            assertThat(json.get("dryRun").asBoolean()).isTrue();
            assertThat(json.get("before").get("s2").asInt()).isEqualTo(32);
            assertThat(json.get("after").get("s2").asInt()).isEqualTo(16);
            assertThat(json.get("after").get("s3").asInt()).isEqualTo(16);
            assertThat(json.get("moves")).hasSize(1);
            assertThat(json.get("moves").get(0).get("source").asText()).isEqualTo("s2");
            assertThat(json.get("moves").get(0).get("target").asText()).isEqualTo("s3");
            assertThat(json.get("moves").get(0).get("virtualShards")).hasSize(16);
            assertThat(shards().get("s3")[0]).as("a dry run moves nothing").isZero();

            CliRun text = run("rebalance", "--dry-run");
            assertThat(text.out()).startsWith("rebalance plan (dry run, nothing changed):")
                    .contains("would move 16 virtual shards s2 -> s3: ");

            CliRun rebalance = run("rebalance");
            assertThat(rebalance.exitCode()).as(rebalance.toString()).isZero();
            assertThat(rebalance.out()).contains("moved 16 virtual shards s2 -> s3");
            assertThat(shards().values()).allSatisfy(shard -> assertThat(shard[0]).isEqualTo(16));
            assertConsistent();
        }

        @Test
        void aBatchOfNoVirtualShardIsAUsageError() {
            CliRun rebalance = run("rebalance", "--batch", "0");

            assertThat(rebalance.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(rebalance.err()).startsWith("error: Option --batch: virtualShardsPerBatch is 0; it must be at least 1");
        }

        @Test
        void evenShardsNeedNothing() {
            CliRun plan = run("rebalance", "--dry-run");

            assertThat(plan.exitCode()).isZero();
            assertThat(plan.out()).contains("nothing to move: the shards are even");
        }
    }

    @Nested
    class AddShard {

        @Test
        void addsAShardWithItsReferenceDataThatALaterRunMovesTo() {
            String url = "jdbc:h2:mem:cli-added-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

            CliRun add = run("add-shard", "--id", "s4", "--url", url, "--json");

            assertThat(add.exitCode()).as(add.toString()).isZero();
            JsonNode json = add.json();
            assertThat(json.get("shard").asText()).isEqualTo("s4");
            assertThat(json.get("referenceRowsCopied").get("org.atomicshards.samples.model.Country").asLong()).isEqualTo(3);
            assertThat(json.get("referenceDataDivergences")).isEmpty();

            CliRun move = run("move", "--virtual-shards", ownedBy("s0").get(0) + "", "--to", "s4");
            assertThat(move.exitCode()).as("a new run takes s4 over from the catalog: " + move).isZero();
            assertThat(shards().get("s4")[0]).isEqualTo(1);
            assertConsistent();
        }

        @Test
        void aTakenIdIsAConflictAndAMissingUrlAUsageError() {
            CliRun taken = run("add-shard", "--id", "s1", "--url", "jdbc:h2:mem:cli-taken-" + UUID.randomUUID());
            assertThat(taken.exitCode()).as(taken.toString()).isEqualTo(ExitCodes.CONFLICT);
            assertThat(taken.err()).startsWith("error: ").contains("s1").hasLineCount(1);

            CliRun noUrl = run("add-shard", "--id", "s5");
            assertThat(noUrl.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(noUrl.err()).startsWith("error: Missing required option: '--url=JDBC_URL'");
        }

        @Test
        void thePasswordComesFromTheEnvironmentAndIsNeverPrinted() {
            String url = "jdbc:h2:mem:cli-secret-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
            Map<String, String> environment = new LinkedHashMap<>(sample.environment());
            environment.put("ATOMICSHARDS_SHARD_S4_USER", "owner");
            environment.put("ATOMICSHARDS_SHARD_S4_PASSWORD", "s3cret-" + UUID.randomUUID());

            CliRun add = CliRun.of(environment, "add-shard", "--id", "s4", "--url", url, "--config",
                    sample.settingsFile.toString());

            assertThat(add.exitCode()).as(add.toString()).isZero();
            assertThat(add.out()).startsWith("added shard s4 (" + url + "); it owns no virtual shard yet")
                    .contains("reference data copied from s0: Country 3 rows");
            assertThat(add.out() + add.err()).doesNotContain(environment.get("ATOMICSHARDS_SHARD_S4_PASSWORD"));
        }
    }

    @Nested
    class InterruptedMoves {

        @Test
        void aStoppedMoveIsListedBlocksConflictingMovesAndIsResumed() throws Exception {
            List<Integer> moving = ownedBy("s0").subList(0, 2);
            String list = moving.get(0) + "," + moving.get(1);
            MoveFaults.install(step -> {
                if (step.equals("after-copy")) {
                    throw new IllegalStateException("the source went away (played)");
                }
            });
            CliRun move = run("move", "--virtual-shards", list, "--to", "s2", "--lease-seconds", "1");
            MoveFaults.install(null);

            assertThat(move.exitCode()).as(move.toString()).isEqualTo(ExitCodes.MOVE_FAILED);
            List<String> err = move.err().lines().toList();
            assertThat(err.get(0)).as("the progress before the stop").startsWith("move ").contains(": batch 1/1, ");
            assertThat(err.get(err.size() - 1)).startsWith("error: Move ")
                    .contains("stopped in batch 0: the source went away (played)")
                    .contains("With this tool: atomicshards resume");
            assertThat(err).as("progress lines, then the error as one line").allMatch(line -> line.startsWith("move ")
                    || line.startsWith("error: "));

            CliRun operations = run("operations", "--json");
            assertThat(operations.exitCode()).as(operations.toString()).isZero();
            JsonNode operation = operations.json().get(0);
            assertThat(operations.json()).hasSize(1);
            assertThat(operation.get("kind").asText()).isEqualTo("MOVE");
            assertThat(operation.get("target").asText()).isEqualTo("s2");
            assertThat(operation.get("error").asText()).contains("the source went away (played)");

            CliRun conflicting = run("move", "--virtual-shards", list, "--to", "s3");
            assertThat(conflicting.exitCode()).as(conflicting.toString()).isEqualTo(ExitCodes.CONFLICT);
            assertThat(conflicting.err()).startsWith("error: Cannot start MOVE of virtual shard ")
                    .contains(operation.get("id").asText()).hasLineCount(1);

            // the stopped run released the operation as it stopped: no waiting for its lease
            CliRun resume = run("resume");
            assertThat(resume.exitCode()).as(resume.toString()).isZero();
            assertThat(resume.out()).startsWith("resumed and finished: moved virtual shards " + list.replace(",", moving.get(1) == moving.get(0) + 1 ? "-" : ",")
                    + " to s2");
            assertThat(run("operations").out()).isEqualTo("no operation in progress" + System.lineSeparator());
            assertThat(shards().get("s2")[0]).isEqualTo(18);
            assertConsistent();
        }

        @Test
        void anOperationStillHeldByARunningMoveIsListedWithExitCode6() throws Exception {
            CountDownLatch copied = new CountDownLatch(1);
            CountDownLatch goOn = new CountDownLatch(1);
            MoveFaults.install(step -> {
                if (step.equals("after-copy")) {
                    copied.countDown();
                    await(goOn); // the move is running, its lease held
                }
            });
            ExecutorService mover = Executors.newSingleThreadExecutor();
            try {
                Future<CliRun> move = mover.submit(() -> run("move", "--virtual-shards", ownedBy("s1").get(0) + "",
                        "--to", "s0", "--lease-seconds", "600"));
                assertThat(copied.await(30, TimeUnit.SECONDS)).as("the move reached its copy").isTrue();

                CliRun resume = run("resume", "--json");

                assertThat(resume.exitCode()).as(resume.toString()).isEqualTo(ExitCodes.CONFLICT);
                assertThat(resume.json().get("finished")).isEmpty();
                assertThat(resume.json().get("stillHeld")).hasSize(1);
                assertThat(resume.json().get("stillHeld").get(0).get("target").asText()).isEqualTo("s0");
                assertThat(run("resume").out()).startsWith("still held: MOVE ").contains("run resume again after that");
                goOn.countDown();
                assertThat(move.get(60, TimeUnit.SECONDS).exitCode()).isZero();
            } finally {
                goOn.countDown();
                MoveFaults.install(null);
                mover.shutdownNow();
            }
            assertThat(run("operations").out()).isEqualTo("no operation in progress" + System.lineSeparator());
        }

        private static void await(CountDownLatch latch) {
            try {
                latch.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Test
        void resumeWithNothingToDoSaysSo() {
            CliRun resume = run("resume");

            assertThat(resume.exitCode()).isZero();
            assertThat(resume.out()).isEqualTo("nothing to resume: no operation in progress" + System.lineSeparator());
        }
    }
}
