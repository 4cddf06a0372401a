package org.atomicshards.hibernate.internal.reshard.journal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.admin.ReshardingConflictException;
import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal.Bucket;
import org.atomicshards.hibernate.internal.reshard.journal.MoveJournal.Move;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who may take an unfinished operation ({@link MoveJournal#claim}) and what the claimant reads: the operation as the
 * journal holds it under the claim, never an older list's copy, and nothing once it has ended. Every journal write of a
 * run is conditional on its token: a run whose operation another run claimed can no longer change it.
 */
class MoveJournalTest {

    private static final ShardId SOURCE = ShardId.of("s0");
    private static final ShardId TARGET = ShardId.of("s1");

    private Catalog catalog;
    private MoveJournal journal;

    @BeforeEach
    void openCatalog() {
        catalog = new Catalog("jdbc:h2:mem:journal_" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", null, null,
                "journal-test");
        catalog.exclusively("prepare the schema", () -> {
            catalog.prepareSchema();
            return null;
        });
        journal = new MoveJournal(catalog);
    }

    @AfterEach
    void closeCatalog() {
        catalog.close();
    }

    private void record(String id, String owner, Instant leaseUntil) {
        journal.create(new Move(id, "MOVE", TARGET, "0-1", MoveJournal.PLANNED, 0, owner, leaseUntil, null, 0, 0,
                Instant.now(), null), List.of(new Bucket(0, SOURCE, 1), new Bucket(1, SOURCE, 1)));
    }

    private static Instant in(Duration duration) {
        return Instant.now().plus(duration);
    }

    @Test
    void anOwnerWithAValidLeaseKeepsItsOperation() {
        record("m1", "instance-a/run1", in(Duration.ofMinutes(5)));

        assertThat(journal.claim("m1", "instance-b", "instance-b/run1", in(Duration.ofMinutes(5)))).as("held by a")
                .isEmpty();
        assertThat(journal.claim("m1", "instance-a", "instance-a/run2", in(Duration.ofMinutes(5))))
                .as("an earlier run of the same instance (which knows it runs none now)")
                .hasValueSatisfying(move -> assertThat(move.owner()).isEqualTo("instance-a/run2"));
        assertThat(journal.unfinished()).singleElement().extracting(Move::owner).isEqualTo("instance-a/run2");
    }

    @Test
    void anOperationWhoseOwnersLeaseLapsedGoesToTheNextClaimant() {
        record("m1", "instance-a/run1", in(Duration.ofMinutes(-1)));

        assertThat(journal.claim("m1", "instance-b", "instance-b/run1", in(Duration.ofMinutes(5))))
                .hasValueSatisfying(move -> assertThat(move.owner()).isEqualTo("instance-b/run1"));
        assertThat(journal.claim("m1", "instance-a", "instance-a/run2", in(Duration.ofMinutes(5))))
                .as("b holds it now").isEmpty();
    }

    @Test
    void aRunWhoseOperationAnotherRunClaimedCanNoLongerChangeIt() {
        record("m1", "instance-a/run1", in(Duration.ofMinutes(-1)));
        assertThat(journal.claim("m1", "instance-b", "instance-b/run1", in(Duration.ofMinutes(5)))).isPresent();

        assertThatThrownBy(() -> journal.state("m1", 0, MoveJournal.FROZEN, "instance-a/run1",
                in(Duration.ofMinutes(5)))).isInstanceOf(OperationLost.class).hasMessageContaining("instance-a/run1");
        assertThat(journal.renew("m1", "instance-a/run1", in(Duration.ofMinutes(5)))).isFalse();
        assertThatThrownBy(() -> journal.finish("m1", "instance-a/run1", MoveJournal.DONE, "done"))
                .isInstanceOf(OperationLost.class);
        journal.error("m1", "instance-a/run1", "a failure of the run that lost it");
        journal.progress("m1", "instance-a/run1", 99, 99);

        Move held = journal.unfinished().get(0);
        assertThat(held.owner()).as("the error released nothing").isEqualTo("instance-b/run1");
        assertThat(held.state()).isEqualTo(MoveJournal.PLANNED);
        assertThat(held.error()).isNull();
        assertThat(held.units()).isZero();
        assertThat(journal.renew("m1", "instance-b/run1", in(Duration.ofMinutes(5)))).isTrue();
        journal.state("m1", 0, MoveJournal.COPYING, "instance-b/run1", in(Duration.ofMinutes(5)));
    }

    @Test
    void theClaimantReadsTheStepTheLastRunReachedNotAnOlderList() {
        record("m1", "instance-a/run1", in(Duration.ofMinutes(-1)));
        Move listedEarlier = journal.unfinished().get(0);
        journal.state("m1", 1, MoveJournal.SWITCHED, "instance-a/run1", in(Duration.ofMinutes(-1)));

        assertThat(listedEarlier.state()).isEqualTo(MoveJournal.PLANNED);
        assertThat(journal.claim("m1", "instance-b", "instance-b/run1", in(Duration.ofMinutes(5))))
                .hasValueSatisfying(move -> {
                    assertThat(move.state()).isEqualTo(MoveJournal.SWITCHED);
                    assertThat(move.batch()).isEqualTo(1);
                    assertThat(move.owner()).isEqualTo("instance-b/run1");
                });
    }

    /** Two operations into one target, on other virtual shards, recorded at the same moment: exactly one is. */
    @Test
    void operationsIntoOneTargetRecordedAtTheSameMomentExcludeEachOther() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20; round++) {
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<Boolean>> recorded = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    String id = "r" + round + "-" + i;
                    int bucket = 100 * round + i;
                    recorded.add(threads.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        try {
                            journal.create(new Move(id, "MOVE", TARGET, Integer.toString(bucket), MoveJournal.PLANNED,
                                    0, id + "/run", in(Duration.ofMinutes(5)), null, 0, 0, Instant.now(), null),
                                    List.of(new Bucket(bucket, SOURCE, 0)));
                            return true;
                        } catch (ReshardingConflictException conflict) {
                            return false;
                        }
                    }));
                }
                int succeeded = 0;
                for (Future<Boolean> one : recorded) {
                    succeeded += one.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }
                assertThat(succeeded).as("round " + round).isEqualTo(1);
                Move winner = journal.unfinished().get(0);
                journal.finish(winner.id(), winner.owner(), MoveJournal.DONE, "done");
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void anOperationThatHasEndedCannotBeClaimedEvenByItsLastOwner() {
        record("done", "instance-a/run1", in(Duration.ofMinutes(5)));
        journal.finish("done", "instance-a/run1", MoveJournal.DONE, "finished");
        record("aborted", "instance-a/run2", in(Duration.ofMinutes(5))); // one at a time into a target
        journal.finish("aborted", "instance-a/run2", MoveJournal.ABORTED, "rolled back");

        for (String owner : List.of("instance-a", "instance-b")) {
            assertThat(journal.claim("done", owner, owner + "/run3", in(Duration.ofMinutes(5))))
                    .as("done, for " + owner).isEmpty();
            assertThat(journal.claim("aborted", owner, owner + "/run3", in(Duration.ofMinutes(5))))
                    .as("aborted, for " + owner).isEmpty();
        }
        assertThat(journal.unfinished()).isEmpty();
        assertThat(journal.endedCount()).isEqualTo(2);
    }
}
