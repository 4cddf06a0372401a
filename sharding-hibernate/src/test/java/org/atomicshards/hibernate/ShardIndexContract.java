package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import org.atomicshards.hibernate.indexmodel.Account;
import org.atomicshards.hibernate.indexmodel.Device;
import org.atomicshards.hibernate.indexmodel.Profile;
import org.atomicshards.hibernate.internal.index.IndexFaults;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Indexes of {@code @ShardIndex} attributes kept by units of work: a look-up asks the shard of the value's entry and
 * finds exactly the rows holding the value; a unique index refuses a second unit before it commits; a writer that
 * dies between its two writes leaves an entry that no look-up returns and that expires.
 */
abstract class ShardIndexContract extends IndexFactoryContract {

    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");
    private static final ShardId S2 = ShardId.of("s2");

    private void persist(long id, String email, String city) {
        shards.inUnit(Account.class, id, session -> session.persist(new Account(id, email, city, 0)));
    }

    private void setEmail(long id, String email) {
        shards.inUnit(Account.class, id, session -> session.find(Account.class, id).setEmail(email));
    }

    private Set<Long> ids(List<Account> accounts) {
        return accounts.stream().map(Account::getId).collect(Collectors.toSet());
    }

    @Nested
    class LookUps {

        @Test
        void aUniqueValueFindsItsUnitAndItsEntryLivesOnTheValuesShardOnly() {
            boolean elsewhere = false;
            for (long id = 1; id <= 30; id++) {
                persist(id, "user" + id + "@example.com", null);
            }
            for (long id = 1; id <= 30; id++) {
                String email = "user" + id + "@example.com";
                assertThat(shards.indexes().findUnique(Account.class, "email", email)).get()
                        .extracting(Account::getId).isEqualTo(id);
                List<IndexFixtures.EntryRow> entries = IndexFixtures.entriesOf(dbs, IndexFixtures.EMAIL, true, email);
                ShardId entryShard = IndexFixtures.entryShard(shards, email);
                assertThat(entries).as("one entry, on the shard of the value's virtual shard, naming the unit")
                        .containsExactly(new IndexFixtures.EntryRow(entryShard.name(),
                                entries.get(0).digest(), Long.toString(id)));
                elsewhere |= !entryShard.equals(shards.shardFor(Account.class, id).orElseThrow());
            }
            assertThat(elsewhere).as("some entry lives away from its unit: entries follow the value").isTrue();
            assertThat(shards.indexes().findUnique(Account.class, "email", "nobody@example.com")).isEmpty();
            assertThat(shards.indexes().exists(Account.class, "email", "user7@example.com")).isTrue();
        }

        @Test
        void entriesHoldDigestsNeverTheValue() {
            persist(1, "secret@example.com", "Lyon");

            assertThat(IndexFixtures.entries(dbs, IndexFixtures.EMAIL, true)).hasSize(1)
                    .allSatisfy(entry -> assertThat(entry.digest()).hasSize(64).doesNotContain("secret"));
        }

        @Test
        void aNonUniqueValueFindsEveryUnitHoldingItAcrossShards() {
            List<Long> inParis = new ArrayList<>();
            for (long id = 1; id <= 40; id++) {
                String city = id % 3 == 0 ? "Paris" : "Oslo";
                persist(id, null, city);
                if (city.equals("Paris")) {
                    inParis.add(id);
                }
            }
            assertThat(inParis.stream().map(id -> shards.shardFor(Account.class, id).orElseThrow()).distinct())
                    .as("the Paris accounts span shards").hasSizeGreaterThan(1);

            assertThat(ids(shards.indexes().find(Account.class, "city", "Paris"))).containsExactlyInAnyOrderElementsOf(inParis);
            assertThat(ids(shards.indexes().findAll(Account.class, "city", List.of("Paris", "Oslo")))).hasSize(40);
            assertThat(shards.indexes().find(Account.class, "city", "paris")).as("exact, case included").isEmpty();
            assertThat(IndexFixtures.entries(dbs, IndexFixtures.CITY, false)).hasSize(40);
        }

        @Test
        void aMemberIndexFindsTheMembersOfEveryUnitAndConvertsIntegralValues() {
            List<UUID> serialSeven = new ArrayList<>();
            for (long id = 1; id <= 12; id++) {
                long accountId = id;
                UUID device = UUID.randomUUID();
                long serial = id % 4 == 0 ? 7 : 100 + id;
                if (serial == 7) {
                    serialSeven.add(device);
                }
                shards.inUnit(Account.class, accountId, session -> {
                    Account account = new Account(accountId, null, null, 0);
                    session.persist(account);
                    session.persist(new Device(device, account, serial));
                });
            }

            assertThat(shards.indexes().find(Device.class, "serial", 7L)).extracting(Device::getId)
                    .containsExactlyInAnyOrderElementsOf(serialSeven);
            assertThat(shards.indexes().find(Device.class, "serial", 7)).as("an int for a Long attribute")
                    .hasSize(serialSeven.size());
            assertThatThrownBy(() -> shards.indexes().find(Device.class, "serial", "7"))
                    .isInstanceOf(ShardIndexException.class).hasMessageContaining("java.lang.Long");
        }

        @Test
        void anAttributeWithoutIndexIsRefusedNamingTheIndexesThereAre() {
            assertThatThrownBy(() -> shards.indexes().find(Account.class, "score", 1))
                    .isInstanceOf(ShardIndexException.class)
                    .hasMessageContaining(Account.class.getName() + ".score has no @ShardIndex")
                    .hasMessageContaining(IndexFixtures.EMAIL);
            assertThatThrownBy(() -> shards.indexes().findUnique(Account.class, "city", "Oslo"))
                    .isInstanceOf(ShardIndexException.class).hasMessageContaining("not a unique index");
        }
    }

    @Nested
    class Writes {

        @Test
        void aChangedValueIsFoundUnderTheNewValueOnlyAndItsOldEntryIsDeleted() {
            persist(1, "old@example.com", "Oslo");

            setEmail(1, "new@example.com");

            assertThat(shards.indexes().find(Account.class, "email", "old@example.com")).isEmpty();
            assertThat(ids(shards.indexes().find(Account.class, "email", "new@example.com"))).containsExactly(1L);
            assertThat(IndexFixtures.entriesOf(dbs, IndexFixtures.EMAIL, true, "old@example.com")).isEmpty();
            assertThat(IndexFixtures.entries(dbs, IndexFixtures.EMAIL, true)).hasSize(1);
        }

        @Test
        void aValueSetToNullAndADeletedUnitLeaveNoEntry() {
            persist(1, "a@example.com", "Oslo");
            persist(2, "b@example.com", "Oslo");

            setEmail(1, null);
            shards.inUnit(Account.class, 2L, session -> session.remove(session.find(Account.class, 2L)));

            assertThat(IndexFixtures.entries(dbs, IndexFixtures.EMAIL, true)).isEmpty();
            assertThat(ids(shards.indexes().find(Account.class, "city", "Oslo"))).containsExactly(1L);
            assertThat(IndexFixtures.entries(dbs, IndexFixtures.CITY, false)).hasSize(1);
        }

        @Test
        void anUpdateFromAStaleSessionRemovesTheValueTheRowHoldsNotTheOneItLoaded() {
            persist(1, "first@example.com", null);
            shards.inUnit(Account.class, 1L, stale -> {
                Account loaded = stale.find(Account.class, 1L); // loaded "first"
                Thread other = new Thread(() -> setEmail(1, "second@example.com"));
                other.start();
                join(other);
                loaded.setEmail("third@example.com");
            });
            // the stale unit of work loaded "first", but the row held "second" when it wrote "third"

            assertThat(ids(shards.indexes().find(Account.class, "email", "third@example.com"))).containsExactly(1L);
            assertThat(IndexFixtures.entries(dbs, IndexFixtures.EMAIL, true)).as("first and second both let go of")
                    .hasSize(1);
        }

        @Test
        void aDynamicUpdateOfAnotherColumnFromAStaleSessionKeepsTheEntryOfTheValueTheRowHolds() {
            shards.inUnit(Profile.class, 1L, session -> session.persist(new Profile(1L, "first", "bio")));
            shards.inUnit(Profile.class, 1L, stale -> {
                Profile loaded = stale.find(Profile.class, 1L); // loaded "first"
                Thread other = new Thread(() -> shards.inUnit(Profile.class, 1L,
                        session -> session.find(Profile.class, 1L).setHandle("second")));
                other.start();
                join(other);
                loaded.setBio("another bio"); // writes the bio only: the row keeps "second"
            });

            assertThat(shards.indexes().find(Profile.class, "handle", "second")).extracting(Profile::getId)
                    .containsExactly(1L);
            assertThat(shards.indexes().find(Profile.class, "handle", "first")).isEmpty();
            assertThat(shards.indexes().verify(Profile.class, "handle", false).isConsistent()).isTrue();
        }

        @Test
        void aDuplicateOnAUniqueIndexFailsBeforeTheUnitCommitsWithoutShowingTheValue() {
            long a = IndexFixtures.keyOn(shards, S0, 1);
            long b = IndexFixtures.keyOn(shards, S1, 1);
            long c = IndexFixtures.keyOn(shards, S2, 1);
            persist(a, "taken@example.com", null);
            persist(c, "c@example.com", null);

            assertThatThrownBy(() -> persist(b, "taken@example.com", null))
                    .isInstanceOfSatisfying(DuplicateIndexValueException.class, e -> {
                        assertThat(e.entity()).isEqualTo(Account.class.getName());
                        assertThat(e.attribute()).isEqualTo("email");
                        assertThat(e.valueType()).isEqualTo("java.lang.String");
                    })
                    .hasMessageContaining(IndexFixtures.EMAIL).hasMessageContaining("java.lang.String")
                    .hasMessageNotContaining("taken@");
            assertThat(IndexFixtures.accounts(dbs)).as("the second unit was not committed")
                    .noneMatch(row -> row.id() == b);
            assertThatThrownBy(() -> setEmail(c, "taken@example.com"))
                    .isInstanceOf(DuplicateIndexValueException.class);
            assertThat(ids(shards.indexes().find(Account.class, "email", "c@example.com"))).containsExactly(c);

            setEmail(a, "moved@example.com");
            persist(b, "taken@example.com", null);

            assertThat(ids(shards.indexes().find(Account.class, "email", "taken@example.com"))).containsExactly(b);
            assertThat(IndexFixtures.entries(dbs, IndexFixtures.EMAIL, true)).hasSize(3);
        }

        @Test
        void aUnitMayKeepItsOwnValueAndSwapValuesBetweenRows() {
            persist(1, "mine@example.com", null);

            shards.inUnit(Account.class, 1L, session -> {
                Account account = session.find(Account.class, 1L);
                account.setEmail("tmp@example.com");
                session.flush();
                account.setEmail("mine@example.com");
            });

            assertThat(ids(shards.indexes().find(Account.class, "email", "mine@example.com"))).containsExactly(1L);
            assertThat(shards.indexes().find(Account.class, "email", "tmp@example.com")).isEmpty();
            assertThat(IndexFixtures.entries(dbs, IndexFixtures.EMAIL, true)).hasSize(1);
        }
    }

    @Nested
    class CrashesBetweenTheWrites {

        @Test
        void aWriterDeadAfterItsClaimLeavesAnEntryNoLookUpReturnsAndThatExpires() throws InterruptedException {
            long a = IndexFixtures.keyOn(shards, S0, 1);
            long b = IndexFixtures.keyOn(shards, S1, 1);
            IndexFaults.install(step -> {
                if (step.equals("before-commit")) {
                    throw new IndexFaults.Crash(step);
                }
            });
            assertThatThrownBy(() -> persist(a, "orphan@example.com", null)).satisfies(ShardIndexContract::isCrash);
            IndexFaults.install(null);

            assertThat(IndexFixtures.entriesOf(dbs, IndexFixtures.EMAIL, true, "orphan@example.com"))
                    .as("the claim was committed before the unit").hasSize(1);
            assertThat(IndexFixtures.accounts(dbs)).as("the unit was rolled back").noneMatch(row -> row.id() == a);
            assertThat(shards.indexes().find(Account.class, "email", "orphan@example.com")).isEmpty();
            assertThatThrownBy(() -> persist(b, "orphan@example.com", null))
                    .as("a claim in flight is reserved for the claim timeout")
                    .isInstanceOf(DuplicateIndexValueException.class);

            Thread.sleep(CLAIM_TIMEOUT + 200);
            persist(b, "orphan@example.com", null);

            assertThat(ids(shards.indexes().find(Account.class, "email", "orphan@example.com"))).containsExactly(b);
            assertThat(IndexFixtures.entriesOf(dbs, IndexFixtures.EMAIL, true, "orphan@example.com"))
                    .extracting(IndexFixtures.EntryRow::unitKey).containsExactly(Long.toString(b));
        }

        @Test
        void aWriterDeadAfterItsCommitLeavesAStaleEntryThatLookUpsCheckAndClean() throws InterruptedException {
            persist(1, "before@example.com", "Oslo");
            IndexFaults.install(step -> {
                if (step.equals("after-commit")) {
                    throw new IndexFaults.Crash(step);
                }
            });
            shards.inUnit(Account.class, 1L, session -> {
                Account account = session.find(Account.class, 1L);
                account.setEmail("after@example.com");
                account.setCity("Rome");
            });
            IndexFaults.install(null);

            assertThat(IndexFixtures.entries(dbs, IndexFixtures.EMAIL, true)).as("the old entry is left").hasSize(2);
            assertThat(shards.indexes().find(Account.class, "email", "before@example.com")).isEmpty();
            assertThat(shards.indexes().find(Account.class, "city", "Oslo")).isEmpty();
            assertThat(ids(shards.indexes().find(Account.class, "email", "after@example.com"))).containsExactly(1L);
            assertThat(shards.indexes().verify(Account.class, "email", false))
                    .isEqualTo(new IndexReport(IndexFixtures.EMAIL, 1, 2, 0, 1, 0, 0));

            Thread.sleep(CLAIM_TIMEOUT + 200);
            assertThat(shards.indexes().find(Account.class, "email", "before@example.com")).isEmpty();
            assertThat(IndexFixtures.entries(dbs, IndexFixtures.EMAIL, true)).as("cleaned by the look-up").hasSize(1);
            assertThat(shards.indexes().verify(Account.class, "city", true))
                    .isEqualTo(new IndexReport(IndexFixtures.CITY, 1, 2, 0, 1, 0, 1));
            assertThat(IndexFixtures.entries(dbs, IndexFixtures.CITY, false)).hasSize(1);
        }

        @Test
        void aUnitOfWorkThatRollsBackReleasesItsClaims() {
            long a = IndexFixtures.keyOn(shards, S0, 1);
            long b = IndexFixtures.keyOn(shards, S1, 1);

            assertThatThrownBy(() -> shards.inUnit(Account.class, a, session -> {
                session.persist(new Account(a, "rolled@example.com", "Oslo", 0));
                session.flush();
                throw new IllegalStateException("the application gives up");
            })).isInstanceOf(IllegalStateException.class);

            assertThat(IndexFixtures.entries(dbs, IndexFixtures.EMAIL, true)).isEmpty();
            assertThat(IndexFixtures.entries(dbs, IndexFixtures.CITY, false)).isEmpty();
            persist(b, "rolled@example.com", null);
            assertThat(ids(shards.indexes().find(Account.class, "email", "rolled@example.com"))).containsExactly(b);
        }
    }

    @Nested
    class Building {

        @Test
        void aBuildIndexesRowsWrittenBeforeTheIndexAndCountsConflictsAndAVerifyAgrees() {
            for (long id = 1; id <= 20; id++) {
                persist(id, "u" + id + "@example.com", "C" + (id % 4));
            }
            wipeEntries();
            assertThat(shards.indexes().verify(Account.class, "email", false).missing()).isEqualTo(20);
            assertThat(shards.indexes().find(Account.class, "email", "u3@example.com")).isEmpty();
            writeRawEmail(5, "u6@example.com"); // two units with one value, written behind the index's back

            IndexReport built = shards.indexes().build(Account.class, "email");
            IndexReport again = shards.indexes().build(Account.class, "email");

            assertThat(built).isEqualTo(new IndexReport(IndexFixtures.EMAIL, 20, 19, 0, 0, 1, 0));
            assertThat(again).as("running it again is harmless").isEqualTo(built);
            assertThat(shards.indexes().verify(Account.class, "email", false))
                    .isEqualTo(new IndexReport(IndexFixtures.EMAIL, 20, 19, 0, 0, 1, 0));
            assertThat(shards.indexes().build(Account.class, "city").entries()).isEqualTo(20);
            assertThat(shards.indexes().verify(Account.class, "city", false).isConsistent()).isTrue();
            for (long id = 1; id <= 20; id++) {
                if (id != 5 && id != 6) {
                    assertThat(ids(shards.indexes().find(Account.class, "email", "u" + id + "@example.com")))
                            .containsExactly(id);
                }
            }
            assertThat(ids(shards.indexes().find(Account.class, "email", "u6@example.com")))
                    .as("the entry names one of the two").hasSize(1).isSubsetOf(5L, 6L);
        }
    }

    private void wipeEntries() {
        for (var shard : dbs.shards()) {
            try (var c = dbs.connect(shard.id()); var s = c.createStatement()) {
                s.executeUpdate("delete from atomicshards_index_unique");
                s.executeUpdate("delete from atomicshards_index_entry");
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private void writeRawEmail(long id, String email) {
        String shard = shards.shardFor(Account.class, id).orElseThrow().name();
        try (var c = dbs.connect(shard);
             var ps = c.prepareStatement("update ix_account set email = ? where id = ?")) {
            ps.setString(1, email);
            ps.setLong(2, id);
            assertThat(ps.executeUpdate()).isEqualTo(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void isCrash(Throwable thrown) {
        for (Throwable current = thrown; current != null; current = current.getCause()) {
            if (current instanceof IndexFaults.Crash) {
                return;
            }
        }
        throw new AssertionError("Not a crash: " + thrown, thrown);
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
