package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongPredicate;

import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedQuery;
import org.atomicshards.hibernate.internal.fanout.RuntimeFactories.PolicyKind;
import org.atomicshards.testing.DatabaseKind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Fan-out queries with {@code =} or {@code IN} on an attribute with an index run on the shards of the units its
 * entries name, alone or under AND, on the root or through a join; a negation, {@code <>} or an OR with another
 * predicate runs everywhere; and an index on a string attribute narrows nothing where the shards' collation treats
 * different strings as equal (it compares exactly). The rows equal those of a full fan-out (the oracle suites compare
 * whole results with one database).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class IndexedPruningContract {

    private static final int SHARDS = 4;

    protected abstract DatabaseKind kind();

    /** Whether the shards' default collation compares strings exactly (not MariaDB's case-insensitive default). */
    protected boolean exactStrings() {
        return kind() != DatabaseKind.MARIADB;
    }

    private final TestDataSet data = new TestDataSet(77L, 200, 800, false);
    private RuntimeFactories.Sharded sharded;

    @BeforeAll
    void build() {
        sharded = RuntimeFactories.build(kind(), PolicyKind.HASH, SHARDS, data, "", FanOutSettings.defaults());
    }

    @AfterAll
    void close() {
        sharded.close();
    }

    private Set<ShardId> all() {
        return new LinkedHashSet<>(sharded.factory().shards());
    }

    /** The shards of the accounts matching {@code accounts}; the first shard alone when none does. */
    private Set<ShardId> shardsOfAccounts(LongPredicate accounts) {
        Set<ShardId> shards = new LinkedHashSet<>();
        for (TestDataSet.AccountRow row : data.accounts) {
            if (accounts.test(row.id())) {
                shards.add(sharded.factory().shardFor(Account.class, row.id()).orElseThrow());
            }
        }
        return shards.isEmpty() ? Set.of(sharded.factory().shards().get(0)) : shards;
    }

    private Set<ShardId> withScore(Collection<Long> scores) {
        return shardsOfAccounts(id -> data.accounts.stream()
                .anyMatch(row -> row.id() == id && scores.contains(row.score())));
    }

    private Set<ShardId> withCategory(String category) {
        return shardsOfAccounts(id -> data.purchases.stream()
                .anyMatch(row -> row.accountId() == id && category.equals(row.category())));
    }

    private <T> ShardedQuery<T> query(String hql, Class<T> type) {
        return sharded.factory().fanOut().createQuery(hql, type);
    }

    private long scoreHeldByFewAccounts() {
        for (long score = 0; ; score++) {
            long holders = score;
            long count = data.accounts.stream().filter(row -> row.score() == holders).count();
            if (count > 0 && count < 3) {
                return score;
            }
        }
    }

    @Test
    void equalityOnAnIndexedRootAttributeRunsOnTheShardsOfItsUnits() {
        long score = scoreHeldByFewAccounts();
        ShardedQuery<Account> query = query("select a from Account a where a.score = :score", Account.class)
                .setParameter("score", score);

        assertThat(query.targetShards()).isEqualTo(withScore(List.of(score))).hasSizeLessThan(SHARDS);
        assertThat(query.getResultList()).isNotEmpty().allSatisfy(a -> assertThat(a.getScore()).isEqualTo(score));
    }

    @Test
    void inThroughAJoinAndUnderAndNarrowsToo() {
        long score = scoreHeldByFewAccounts();
        ShardedQuery<Object> in = query("select p.id from Purchase p join p.account a where a.score in (:scores)"
                + " and p.quantity > 1", Object.class).setParameter("scores", List.of(score, 999L));

        assertThat(in.targetShards()).isEqualTo(withScore(List.of(score, 999L)));
        assertThat(query("select a from Account a where a.score = 12345", Account.class).targetShards())
                .as("a value no unit holds: one shard answers nothing").hasSize(1);
    }

    @Test
    void aNegationAnInequalityOrAnOrWithAnotherPredicateRunsEverywhere() {
        assertThat(query("select a from Account a where not (a.score = 3)", Account.class).targetShards())
                .isEqualTo(all());
        assertThat(query("select a from Account a where a.score <> 3", Account.class).targetShards())
                .isEqualTo(all());
        assertThat(query("select a from Account a where a.score = 3 or a.region = 'eu'", Account.class)
                .targetShards()).isEqualTo(all());
    }

    @Test
    void anIndexedStringNarrowsOnlyWhereTheShardsCompareStringsExactly() {
        String category = "zebra";
        ShardedQuery<Object> query = query("select p.id from Purchase p where p.category = :c", Object.class)
                .setParameter("c", category);

        assertThat(query.targetShards()).isEqualTo(exactStrings() ? withCategory(category) : all());
        assertThat(query.getResultList()).hasSize((int) data.purchases.stream()
                .filter(row -> category.equals(row.category())).count());
        ShardedQuery<Object> nobody = query("select p.id from Purchase p where p.category in ('Zebra', 'none')",
                Object.class);
        assertThat(nobody.targetShards()).as("values no unit holds exactly")
                .hasSize(exactStrings() ? 1 : SHARDS);
        assertThat(nobody.getResultList()).as("a case-insensitive collation finds 'zebra' for 'Zebra'")
                .hasSize(exactStrings() ? 0 : (int) data.purchases.stream()
                        .filter(row -> category.equals(row.category())).count());
    }
}
