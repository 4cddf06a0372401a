package org.atomicshards.hibernate.internal.fanout;

import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.UnsupportedStringCollationException;
import org.atomicshards.hibernate.internal.fanout.StringCollation.Equality;

/**
 * Decides, before a fan-out query runs, how the merge compares its strings so that it compares them as every
 * target shard's database does, and refuses the query where no single rule does.
 *
 * <p>Orderings (ORDER BY, MIN/MAX, HAVING comparisons on strings) use the binary order of the targets' collation
 * ({@link BinaryStringOrder}: UTF-16 on H2, code points on PostgreSQL {@code C} and MariaDB {@code *_bin}, with
 * PAD SPACE on MariaDB {@code utf8mb4_bin}), or the order the application declared
 * ({@code FanOutSettings.stringOrder}); a linguistic collation, or targets whose binary orders differ, are refused
 * unless an order is declared. Equalities (GROUP BY, DISTINCT on strings) need a collation under which equal strings
 * have equal characters, apart from trailing spaces under PAD SPACE, on every target, and the same rule for trailing
 * spaces on all of them, whatever the declared order.
 */
final class StringComparisonCheck {

    private final Comparator<String> configuredOrder;
    private final boolean orderDeclared;

    /**
     * @param configuredOrder the order the settings hold (the default when no shard collation is needed)
     * @param orderDeclared   whether the application configured it, declaring that it matches the shards
     */
    StringComparisonCheck(Comparator<String> configuredOrder, boolean orderDeclared) {
        this.configuredOrder = configuredOrder;
        this.orderDeclared = orderDeclared;
    }

    /**
     * Checks the plan against the targets' collations, reading a shard's collation only when the plan compares
     * strings at all.
     *
     * @return how the merge compares strings; never null
     * @throws UnsupportedStringCollationException naming the first construct and the shards the merge cannot serve
     */
    StringRules check(MergePlan plan, List<ShardId> targets, Function<ShardId, StringCollation> collations) {
        return check(plan.stringOrderings, plan.stringEqualities, targets, collations);
    }

    /** Whether checking the plan needs the targets' collations (it compares strings the check cares about). */
    boolean needsCollations(MergePlan plan) {
        return needsCollations(plan.stringOrderings, plan.stringEqualities);
    }

    /** The rules of a query that compares no strings in the merge. */
    StringRules unchecked() {
        return new StringRules(configuredOrder, false);
    }

    private boolean needsCollations(List<String> orderings, List<String> equalities) {
        return (!orderDeclared && !orderings.isEmpty()) || !equalities.isEmpty();
    }

    StringRules check(List<String> orderings, List<String> equalities, List<ShardId> targets,
                      Function<ShardId, StringCollation> collations) {
        if (!needsCollations(orderings, equalities)) {
            return unchecked();
        }
        boolean checkOrder = !orderDeclared && !orderings.isEmpty();
        Map<ShardId, StringCollation> read = new LinkedHashMap<>();
        Set<BinaryStringOrder> orders = EnumSet.noneOf(BinaryStringOrder.class);
        Set<Equality> equalityRules = EnumSet.noneOf(Equality.class);
        for (ShardId shard : targets) {
            StringCollation collation = collations.apply(shard);
            read.put(shard, collation);
            if (checkOrder && !collation.binaryOrder()) {
                throw new UnsupportedStringCollationException(orderings.get(0) + " (the merge orders strings)",
                        shard, collation.name(), "The merge orders strings by a binary order (code points or"
                        + " UTF-16 code units), so its order could differ from this database's. Use a binary"
                        + " collation for the column or the database (PostgreSQL \"C\", MariaDB utf8mb4_nopad_bin),"
                        + " or configure FanOutSettings.stringOrder with a comparator that orders exactly as this"
                        + " collation does (for example a java.text.Collator for its locale): it is then your"
                        + " responsibility that they agree.");
            }
            if (!equalities.isEmpty() && !collation.mergeableEquality()) {
                throw new UnsupportedStringCollationException(equalities.get(0) + " (the merge matches strings)",
                        shard, collation.name(), "This collation treats strings with different characters as"
                        + " equal (e.g. case-insensitive), but the merge groups and de-duplicates strings by their"
                        + " exact characters, so equal values from different shards would not be combined. Use a"
                        + " binary collation for the column or the database (MariaDB utf8mb4_nopad_bin, PostgreSQL"
                        + " \"C\"); a configured FanOutSettings.stringOrder does not change this.");
            }
            if (collation.order() != null) {
                orders.add(collation.order());
            }
            equalityRules.add(collation.equality());
        }
        if (checkOrder && orders.size() > 1) {
            throw differing(orderings.get(0) + " (the merge orders strings)", read, "Their binary orders differ ("
                    + describe(read) + "), so no single order merges their rows as one database would sort them.");
        }
        if (!equalities.isEmpty() && equalityRules.size() > 1) {
            throw differing(equalities.get(0) + " (the merge matches strings)", read, "Some of them treat strings"
                    + " that differ only in trailing spaces as equal (PAD SPACE) and others do not (NO PAD), so"
                    + " no single rule groups their rows as one database would.");
        }
        boolean padSpace = equalityRules.contains(Equality.PAD_SPACE);
        if (orderDeclared) {
            return new StringRules(configuredOrder, padSpace);
        }
        return new StringRules(orders.size() == 1 ? orders.iterator().next() : configuredOrder, padSpace);
    }

    private static UnsupportedStringCollationException differing(String construct,
                                                                 Map<ShardId, StringCollation> collations,
                                                                 String why) {
        Map<ShardId, String> names = new LinkedHashMap<>();
        collations.forEach((shard, collation) -> names.put(shard, collation.name()));
        return new UnsupportedStringCollationException(construct, names, why + " Create every shard database with"
                + " the same collation (for example PostgreSQL \"C\" or MariaDB utf8mb4_nopad_bin on all of them).");
    }

    private static String describe(Map<ShardId, StringCollation> collations) {
        StringBuilder text = new StringBuilder();
        collations.forEach((shard, collation) -> {
            if (collation.order() != null) {
                text.append(text.length() == 0 ? "" : ", ").append(shard).append(": ")
                        .append(collation.order().description());
            }
        });
        return text.toString();
    }
}
