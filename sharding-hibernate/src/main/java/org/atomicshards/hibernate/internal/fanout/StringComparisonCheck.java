package org.atomicshards.hibernate.internal.fanout;

import java.util.List;
import java.util.function.Function;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnsupportedStringCollationException;

/**
 * Decides, before a fan-out query runs, whether the merge can compare its strings the way every target shard's
 * database does; refuses the query otherwise. Orderings (ORDER BY, MIN/MAX, HAVING comparisons on strings) need a
 * binary collation on every shard, or a string order the application declared to match
 * ({@code FanOutSettings.stringOrder}). Equalities (GROUP BY, DISTINCT on strings) need a collation under which
 * equal strings have equal characters, whatever the declared order: the merge groups by exact characters.
 */
final class StringComparisonCheck {

    private final boolean orderDeclared;

    /** @param orderDeclared whether the application configured a string order it declares matches the shards */
    StringComparisonCheck(boolean orderDeclared) {
        this.orderDeclared = orderDeclared;
    }

    /**
     * Checks the plan against the targets' collations, reading a shard's collation only when the plan compares
     * strings at all.
     *
     * @throws UnsupportedStringCollationException naming the first construct and shard the merge cannot serve
     */
    void check(MergePlan plan, List<ShardId> targets, Function<ShardId, StringCollation> collations) {
        check(plan.stringOrderings, plan.stringEqualities, targets, collations);
    }

    /** Whether checking the plan needs the targets' collations (it compares strings the check cares about). */
    boolean needsCollations(MergePlan plan) {
        return needsCollations(plan.stringOrderings, plan.stringEqualities);
    }

    private boolean needsCollations(List<String> orderings, List<String> equalities) {
        return (!orderDeclared && !orderings.isEmpty()) || !equalities.isEmpty();
    }

    void check(List<String> orderings, List<String> equalities, List<ShardId> targets,
               Function<ShardId, StringCollation> collations) {
        if (!needsCollations(orderings, equalities)) {
            return;
        }
        boolean checkOrder = !orderDeclared && !orderings.isEmpty();
        for (ShardId shard : targets) {
            StringCollation collation = collations.apply(shard);
            if (checkOrder && !collation.binaryOrder()) {
                throw new UnsupportedStringCollationException(orderings.get(0) + " (the merge orders strings)",
                        shard, collation.name(), "The merge orders strings by their characters' code values"
                        + " (binary), so its order could differ from this database's. Use a binary collation for"
                        + " the column or the database (PostgreSQL \"C\", MariaDB utf8mb4_bin), or configure"
                        + " FanOutSettings.stringOrder with a comparator that orders exactly as this collation does"
                        + " (for example a java.text.Collator for its locale): it is then your responsibility that"
                        + " they agree.");
            }
            if (!equalities.isEmpty() && !collation.binaryEquality()) {
                throw new UnsupportedStringCollationException(equalities.get(0) + " (the merge matches strings)",
                        shard, collation.name(), "This collation treats strings with different characters as"
                        + " equal (e.g. case-insensitive), but the merge groups and de-duplicates strings by their"
                        + " exact characters, so equal values from different shards would not be combined. Use a"
                        + " binary collation for the column or the database (MariaDB utf8mb4_bin, PostgreSQL"
                        + " \"C\"); a configured FanOutSettings.stringOrder does not change this.");
            }
        }
    }
}
