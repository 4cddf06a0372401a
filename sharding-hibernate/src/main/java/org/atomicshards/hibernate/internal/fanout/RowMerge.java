package org.atomicshards.hibernate.internal.fanout;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Function;

import org.atomicshards.hibernate.internal.fanout.MergePlan.Combine;
import org.atomicshards.hibernate.internal.fanout.MergePlan.Item;
import org.atomicshards.hibernate.internal.fanout.MergePlan.SortKey;
import org.atomicshards.hibernate.internal.fanout.aggregate.MergedGroup;
import org.atomicshards.hibernate.internal.fanout.aggregate.Values;

/**
 * Merges the shards' rows of one executed query into the query's result, as one database would have produced it:
 * a k-way merge of the shards' ordered streams (or their concatenation when there is no ORDER BY), or, for an
 * aggregating query, the re-aggregation of the shards' groups followed by HAVING and ORDER BY; then DISTINCT, then
 * paging, then the result shape.
 */
final class RowMerge {

    private final MergePlan plan;
    private final Values values;
    private final Function<Object, Object> identity;

    /**
     * @param identity maps a value to what identifies it across sessions: an entity to its type and id, a string
     *                 to what its collation compares (without trailing spaces under PAD SPACE),
     *                 anything else to itself
     */
    RowMerge(MergePlan plan, Values values, Function<Object, Object> identity) {
        this.plan = plan;
        this.values = values;
        this.identity = identity;
    }

    /** The merged, paged, shaped rows; reads the shards lazily where the plan allows. */
    Iterator<Object> rows(FanOutRun run, ParameterBindings bindings, long firstResult, long maxResults) {
        Iterator<Object[]> merged;
        if (plan.aggregating) {
            merged = aggregate(run, bindings).iterator();
        }
        else if (plan.sorted()) {
            merged = new KWayMerge(run, rowOrder());
        }
        else {
            merged = new Concatenation(run);
        }
        if (plan.distinct) {
            merged = new DistinctRows(merged);
        }
        Iterator<Object[]> paged = new Page(merged, firstResult, maxResults);
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return paged.hasNext();
            }

            @Override
            public Object next() {
                return plan.shape.build(paged.next(), plan.visible);
            }
        };
    }

    /** Orders merged rows (whose values are indexed by item) by the plan's sort keys. */
    Comparator<Object[]> rowOrder() {
        List<SortKey> keys = plan.sortKeys;
        return (left, right) -> {
            for (SortKey key : keys) {
                Object l = left[key.item()];
                Object r = right[key.item()];
                int result;
                if (l == null || r == null) {
                    if (l == r) {
                        continue;
                    }
                    result = (l == null) == key.nullsFirst() ? -1 : 1;
                    return result;
                }
                result = values.compare(l, r, key.enumByName());
                if (result != 0) {
                    return key.descending() ? -result : result;
                }
            }
            return 0;
        };
    }

    // ---- aggregation

    private List<Object[]> aggregate(FanOutRun run, ParameterBindings bindings) {
        Combine[] combine = plan.combine;
        List<Integer> keyColumns = new ArrayList<>();
        for (int i = 0; i < combine.length; i++) {
            if (combine[i] == Combine.KEY) {
                keyColumns.add(i);
            }
        }
        Map<List<Object>, Group> groups = new LinkedHashMap<>();
        if (plan.global) {
            groups.put(List.of(), new Group(combine.length));
        }
        for (ShardCursor cursor : run.cursors()) {
            Object row;
            while ((row = run.peek(cursor)) != null) {
                run.poll(cursor);
                Object[] columns = (Object[]) row;
                List<Object> key = new ArrayList<>(keyColumns.size());
                for (int column : keyColumns) {
                    key.add(keyOf(columns[column]));
                }
                Group group = groups.computeIfAbsent(key, k -> new Group(combine.length));
                group.add(columns, combine);
            }
        }
        List<Object[]> rows = new ArrayList<>(groups.size());
        for (Group group : groups.values()) {
            Object[] items = finish(group);
            if (plan.having == null || Boolean.TRUE.equals(plan.having.test(items, bindings, values))) {
                rows.add(items);
            }
        }
        if (plan.sorted()) {
            rows.sort(rowOrder());
        }
        return rows;
    }

    private Object keyOf(Object value) {
        Object id = identity.apply(value);
        return id instanceof BigDecimal decimal ? decimal.stripTrailingZeros() : id;
    }

    private Object[] finish(Group group) {
        List<Item> items = plan.items;
        Object[] result = new Object[items.size()];
        for (int i = 0; i < result.length; i++) {
            Item item = items.get(i);
            result[i] = item.aggregate() == null ? group.accumulators[item.column()] : item.aggregate().finish(group);
        }
        return result;
    }

    private static Object sumOf(Set<Object> distinctValues) {
        Object sum = null;
        for (Object value : distinctValues) {
            sum = Values.add(sum, value);
        }
        return sum;
    }

    /** The accumulated columns of one group. */
    private final class Group implements MergedGroup {
        final Object[] accumulators;
        final Map<Integer, Set<Object>> distinctSets = new HashMap<>();
        boolean empty = true;

        Group(int columns) {
            accumulators = new Object[columns];
        }

        /** The largest scale of the decimals of a distinct-argument column, before they lost trailing zeros. */
        final Map<Integer, Integer> distinctScales = new HashMap<>();

        @Override
        public Object partial(int column) {
            return accumulators[column];
        }

        @Override
        public Set<Object> distinctValues(int column) {
            return distinctSets.computeIfAbsent(column, c -> new HashSet<>());
        }

        @Override
        public Object distinctSum(int column) {
            Object sum = sumOf(distinctValues(column));
            Integer scale = distinctScales.get(column);
            return sum instanceof BigDecimal decimal && scale != null && decimal.scale() < scale
                    ? decimal.setScale(scale) : sum;
        }

        void add(Object[] columns, Combine[] combine) {
            for (int i = 0; i < combine.length; i++) { // a shard row may end with columns the merge does not read
                Object value = columns[i];
                Object current = accumulators[i];
                switch (combine[i]) {
                    case KEY:
                    case PASSENGER:
                        if (empty) {
                            accumulators[i] = value;
                        }
                        break;
                    case PARTIAL:
                        accumulators[i] = plan.partials[i].merge(current, value, values);
                        break;
                    case DISTINCT_ARGUMENT:
                        if (value instanceof BigDecimal decimal) {
                            distinctScales.merge(i, decimal.scale(), Math::max);
                            distinctValues(i).add(decimal.stripTrailingZeros());
                        }
                        else if (value != null) {
                            distinctValues(i).add(keyOf(value));
                        }
                        break;
                    default:
                        break;
                }
            }
            empty = false;
        }
    }

    // ---- streaming stages

    /** Merges the shards' streams, each already ordered by the sort keys, holding one head row per shard. */
    private static final class KWayMerge implements Iterator<Object[]> {
        private final FanOutRun run;
        private final PriorityQueue<Head> heads;
        private long sequence;

        KWayMerge(FanOutRun run, Comparator<Object[]> order) {
            this.run = run;
            Comparator<Head> byRow = (left, right) -> order.compare(left.row, right.row);
            this.heads = new PriorityQueue<>(Math.max(1, run.cursors().size()),
                    byRow.thenComparingLong(head -> head.sequence));
            for (ShardCursor cursor : run.cursors()) {
                advance(new Head(cursor));
            }
        }

        /** Queues the shard's next row, if any, in its head (one head per shard, reused for each of its rows). */
        private void advance(Head head) {
            Object row = run.peek(head.cursor);
            if (row != null) {
                head.row = (Object[]) row;
                head.sequence = sequence++;
                heads.add(head);
            }
        }

        @Override
        public boolean hasNext() {
            return !heads.isEmpty();
        }

        @Override
        public Object[] next() {
            Head head = heads.poll();
            if (head == null) {
                throw new NoSuchElementException();
            }
            Object[] row = head.row;
            run.poll(head.cursor);
            advance(head);
            return row;
        }

        /** A shard's row in the queue; out of the queue while its next row is read. */
        private static final class Head {
            private final ShardCursor cursor;
            private Object[] row;
            private long sequence;

            Head(ShardCursor cursor) {
                this.cursor = cursor;
            }
        }
    }

    /** The shards' rows one shard after the other (no ORDER BY: any order is what one database may return). */
    private static final class Concatenation implements Iterator<Object[]> {
        private final FanOutRun run;
        private int index;

        Concatenation(FanOutRun run) {
            this.run = run;
        }

        @Override
        public boolean hasNext() {
            List<ShardCursor> cursors = run.cursors();
            while (index < cursors.size()) {
                if (run.peek(cursors.get(index)) != null) {
                    return true;
                }
                index++;
            }
            return false;
        }

        @Override
        public Object[] next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return (Object[]) run.poll(run.cursors().get(index));
        }
    }

    /** Drops rows whose visible values were already returned (entities compared by identifier). */
    private final class DistinctRows implements Iterator<Object[]> {
        private final Iterator<Object[]> source;
        private final Set<List<Object>> seen = new HashSet<>();
        private Object[] next;

        DistinctRows(Iterator<Object[]> source) {
            this.source = source;
        }

        @Override
        public boolean hasNext() {
            while (next == null && source.hasNext()) {
                Object[] candidate = source.next();
                List<Object> key = new ArrayList<>(plan.visible.length);
                for (int item : plan.visible) {
                    key.add(keyOf(candidate[item]));
                }
                if (seen.add(key)) {
                    next = candidate;
                }
            }
            return next != null;
        }

        @Override
        public Object[] next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Object[] result = next;
            next = null;
            return result;
        }
    }

    /** Skips the first rows and stops after the maximum (negative: no maximum). */
    private static final class Page implements Iterator<Object[]> {
        private final Iterator<Object[]> source;
        private long toSkip;
        private long remaining;

        Page(Iterator<Object[]> source, long firstResult, long maxResults) {
            this.source = source;
            this.toSkip = firstResult;
            this.remaining = maxResults < 0 ? Long.MAX_VALUE : maxResults;
        }

        @Override
        public boolean hasNext() {
            while (toSkip > 0 && source.hasNext()) {
                source.next();
                toSkip--;
            }
            return remaining > 0 && source.hasNext();
        }

        @Override
        public Object[] next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            remaining--;
            return source.next();
        }
    }
}
