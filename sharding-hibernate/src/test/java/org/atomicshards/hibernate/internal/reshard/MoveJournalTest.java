package org.atomicshards.hibernate.internal.reshard;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.internal.directory.Catalog;
import org.atomicshards.hibernate.internal.reshard.MoveJournal.Bucket;
import org.atomicshards.hibernate.internal.reshard.MoveJournal.Move;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who may take an unfinished operation ({@link MoveJournal#claim}) and what the claimant reads: the operation as the
 * journal holds it under the claim, never an older list's copy, and nothing once it has ended.
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
        record("m1", "instance-a", in(Duration.ofMinutes(5)));

        assertThat(journal.claim("m1", "instance-b", in(Duration.ofMinutes(5)))).as("held by a").isEmpty();
        assertThat(journal.claim("m1", "instance-a", in(Duration.ofMinutes(5))))
                .hasValueSatisfying(move -> assertThat(move.owner()).isEqualTo("instance-a"));
        assertThat(journal.unfinished()).singleElement().extracting(Move::owner).isEqualTo("instance-a");
    }

    @Test
    void anOperationWhoseOwnersLeaseLapsedGoesToTheNextClaimant() {
        record("m1", "instance-a", in(Duration.ofMinutes(-1)));

        assertThat(journal.claim("m1", "instance-b", in(Duration.ofMinutes(5))))
                .hasValueSatisfying(move -> assertThat(move.owner()).isEqualTo("instance-b"));
        assertThat(journal.claim("m1", "instance-a", in(Duration.ofMinutes(5)))).as("b holds it now").isEmpty();
    }

    @Test
    void theClaimantReadsTheStepTheLastRunReachedNotAnOlderList() {
        record("m1", "instance-a", in(Duration.ofMinutes(-1)));
        Move listedEarlier = journal.unfinished().get(0);
        journal.state("m1", 1, MoveJournal.SWITCHED, "instance-a", in(Duration.ofMinutes(-1)));

        assertThat(listedEarlier.state()).isEqualTo(MoveJournal.PLANNED);
        assertThat(journal.claim("m1", "instance-b", in(Duration.ofMinutes(5))))
                .hasValueSatisfying(move -> {
                    assertThat(move.state()).isEqualTo(MoveJournal.SWITCHED);
                    assertThat(move.batch()).isEqualTo(1);
                    assertThat(move.owner()).isEqualTo("instance-b");
                });
    }

    @Test
    void anOperationThatHasEndedCannotBeClaimedEvenByItsLastOwner() {
        record("done", "instance-a", in(Duration.ofMinutes(5)));
        journal.finish("done", MoveJournal.DONE, "finished");
        record("aborted", "instance-a", in(Duration.ofMinutes(5))); // one at a time into a target
        journal.finish("aborted", MoveJournal.ABORTED, "rolled back");

        for (String owner : List.of("instance-a", "instance-b")) {
            assertThat(journal.claim("done", owner, in(Duration.ofMinutes(5)))).as("done, for " + owner).isEmpty();
            assertThat(journal.claim("aborted", owner, in(Duration.ofMinutes(5)))).as("aborted, for " + owner)
                    .isEmpty();
        }
        assertThat(journal.unfinished()).isEmpty();
        assertThat(journal.endedCount()).isEqualTo(2);
    }
}
