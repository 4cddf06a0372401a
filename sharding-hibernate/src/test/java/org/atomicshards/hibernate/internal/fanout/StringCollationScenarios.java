package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.text.Collator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import org.atomicshards.hibernate.FanOutQueries;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.UnsupportedStringCollationException;
import org.atomicshards.hibernate.internal.fanout.RuntimeFactories.PolicyKind;
import org.atomicshards.testing.DatabaseKind;

/**
 * What the real-database collation ITs check, on shard databases whose collation is not binary: a string ORDER BY
 * (and the other string comparisons of the merge) fails naming the attribute and the collation, while queries that
 * compare no strings in the merge return exactly what the databases return.
 */
final class StringCollationScenarios {

    static final int SHARDS = 3;

    private final DatabaseKind kind;
    private final String createOptions;
    private final String collation;
    private final TestDataSet data = new TestDataSet(20_261_121L, 120, 600);

    StringCollationScenarios(DatabaseKind kind, String createOptions, String collation) {
        this.kind = kind;
        this.createOptions = createOptions;
        this.collation = collation;
    }

    RuntimeFactories.Sharded build(FanOutSettings settings) {
        return RuntimeFactories.build(kind, PolicyKind.HASH, SHARDS, data, createOptions, settings);
    }

    void stringOrderByFailsNamingAttributeAndCollation(FanOutQueries fanOut, String hql, String construct) {
        assertThatThrownBy(() -> fanOut.createQuery(hql, Object.class).getResultList())
                .isInstanceOf(UnsupportedStringCollationException.class)
                .hasMessageContaining(construct)
                .hasMessageContaining(collation)
                .hasMessageContaining("FanOutSettings.stringOrder")
                .hasMessageContaining("binary collation");
    }

    /** Non-string ORDER BY: the merged rows equal the data set sorted as the query asks. */
    void numericOrderByIsCorrect(FanOutQueries fanOut) {
        List<Long> ids = fanOut.createQuery("select p.id from Purchase p where p.amount is not null"
                + " order by p.amount desc, p.id", Long.class).getResultList();

        List<TestDataSet.PurchaseRow> expected = new ArrayList<>(data.purchases.stream()
                .filter(row -> row.amount() != null).toList());
        expected.sort(Comparator.comparing(TestDataSet.PurchaseRow::amount).reversed()
                .thenComparing(TestDataSet.PurchaseRow::id));
        assertThat(ids).isNotEmpty().containsExactlyElementsOf(
                expected.stream().map(TestDataSet.PurchaseRow::id).toList());
    }

    /** Aggregates over numbers merged across shards equal those of all rows. */
    void numericAggregatesAreCorrect(FanOutQueries fanOut) {
        Object[] row = (Object[]) fanOut.createQuery("select count(p), max(p.amount), min(p.id) from Purchase p",
                Object.class).getSingleResult();

        assertThat(((Number) row[0]).longValue()).isEqualTo(data.purchases.size());
        assertThat(((Number) row[1]).intValue()).isEqualTo(data.purchases.stream().map(TestDataSet.PurchaseRow::amount)
                .filter(Objects::nonNull).max(Integer::compare).orElseThrow());
        assertThat(((Number) row[2]).longValue()).isEqualTo(data.purchases.stream()
                .mapToLong(TestDataSet.PurchaseRow::id).min().orElseThrow());
    }

    /** Strings selected (not compared) by the merge pass through unchanged. */
    void stringsSelectedButNotComparedAreCorrect(FanOutQueries fanOut) {
        List<String> categories = fanOut.createQuery("select p.category from Purchase p order by p.id",
                String.class).getResultList();

        assertThat(categories).containsExactlyElementsOf(data.purchases.stream()
                .sorted(Comparator.comparingLong(TestDataSet.PurchaseRow::id))
                .map(TestDataSet.PurchaseRow::category).toList());
    }

    /** With a declared order matching the collation, the string ORDER BY merges to the databases' order. */
    void declaredOrderMergesStrings(FanOutQueries fanOut) {
        List<Object> merged = fanOut.createQuery("select p.id from Purchase p where p.category is not null"
                + " order by p.category, p.id", Object.class).getResultList();

        List<TestDataSet.PurchaseRow> expected = new ArrayList<>(data.purchases.stream()
                .filter(row -> row.category() != null).toList());
        expected.sort(Comparator.comparing(TestDataSet.PurchaseRow::category, rootCollator())
                .thenComparing(TestDataSet.PurchaseRow::id));
        assertThat(merged).containsExactlyElementsOf(expected.stream().map(row -> (Object) row.id()).toList());
    }

    long nonNullCategories() {
        return data.purchases.stream().filter(row -> row.category() != null).count();
    }

    /** A comparator the tests declare as matching a linguistic collation on {@link TestDataSet#CATEGORIES}. */
    static Comparator<String> rootCollator() {
        Collator collator = Collator.getInstance(Locale.ROOT);
        return collator::compare;
    }
}
