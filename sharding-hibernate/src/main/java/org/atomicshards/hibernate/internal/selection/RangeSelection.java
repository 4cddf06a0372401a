package org.atomicshards.hibernate.internal.selection;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import org.atomicshards.hibernate.KeyRange;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.internal.routing.ShardKeys;
import org.atomicshards.hibernate.spi.PolicyOptions;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.UnitTopology;

/**
 * {@code range}: integral keys in configured inclusive ranges, each owned by one virtual shard (option
 * {@code ranges}: {@code <from>-<to>=<virtual shard>,...}, disjoint). A key outside every range cannot be routed. A
 * range predicate on the key narrows a fan-out to the shards owning the overlapping ranges.
 */
public final class RangeSelection implements SelectionPolicy {

    public static final String NAME = "range";
    public static final String RANGES = "ranges";

    private static final String EXAMPLE = "0-99=0,100-199=1";

    private final List<KeyRange> sorted;
    private final boolean allLong;
    private final long[] froms;
    private final long[] tos;
    private final int[] owners;

    /** The prototype, without ranges; only {@link #configure} is meaningful on it. */
    public RangeSelection() {
        this(List.of());
    }

    /** A policy over {@code ranges}, not validated: the builder writes them as settings, validated at boot. */
    public RangeSelection(List<KeyRange> ranges) {
        this.sorted = ranges.stream().sorted(Comparator.comparing(KeyRange::from)).toList();
        this.allLong = sorted.stream().allMatch(r -> r.from().bitLength() < 64 && r.to().bitLength() < 64);
        this.froms = sorted.stream().mapToLong(r -> r.from().longValue()).toArray();
        this.tos = sorted.stream().mapToLong(r -> r.to().longValue()).toArray();
        this.owners = sorted.stream().mapToInt(KeyRange::virtualShard).toArray();
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The ranges, ascending by their lower bound. */
    public List<KeyRange> ranges() {
        return sorted;
    }

    @Override
    public SelectionPolicy configure(PolicyOptions options) {
        String text = options.required(RANGES, EXAMPLE);
        List<KeyRange> ranges = new ArrayList<>();
        for (String entry : text.split(",")) {
            String[] parts = entry.trim().split("=");
            int dash = parts[0].indexOf('-', 1);
            try {
                if (parts.length != 2 || dash < 0) {
                    throw new IllegalArgumentException("not '<from>-<to>=<virtual shard>'");
                }
                ranges.add(new KeyRange(new BigInteger(parts[0].substring(0, dash).trim()),
                        new BigInteger(parts[0].substring(dash + 1).trim()), Integer.parseInt(parts[1].trim())));
            } catch (IllegalArgumentException e) {
                throw options.invalid(RANGES, "entry '" + entry.trim() + "' is invalid (" + e.getMessage()
                        + "). Fix: e.g. " + EXAMPLE);
            }
        }
        for (int i = 0; i < ranges.size(); i++) {
            KeyRange r = ranges.get(i);
            if (r.virtualShard() >= options.virtualShards()) {
                throw options.invalid(RANGES, "range " + r + " names virtual shard " + r.virtualShard()
                        + " but there are only " + options.virtualShards() + " (0-" + (options.virtualShards() - 1)
                        + "). Fix: use a virtual shard below " + options.virtualShards() + " or raise "
                        + ShardingSettings.VIRTUAL_SHARDS);
            }
            for (int j = i + 1; j < ranges.size(); j++) {
                if (r.overlaps(ranges.get(j))) {
                    throw options.invalid(RANGES, "ranges " + r + " and " + ranges.get(j)
                            + " overlap, so a key in both would have two owners. Fix: make them disjoint");
                }
            }
        }
        return new RangeSelection(ranges);
    }

    @Override
    public Map<String, String> options() {
        return Map.of(RANGES, sorted.stream().map(KeyRange::toString).collect(Collectors.joining(",")));
    }

    @Override
    public void prepare(UnitTopology unit) {
        IntegralKeys.require(unit, NAME);
    }

    @Override
    public int virtualShardOf(Object key, UnitTopology unit) {
        if (allLong && !(key instanceof BigInteger)) {
            long k = ((Number) key).longValue();
            int index = Arrays.binarySearch(froms, k);
            if (index < 0) {
                index = -index - 2;
            }
            if (index >= 0 && k <= tos[index]) {
                return owners[index];
            }
        } else {
            BigInteger k = ShardKeys.toBigInteger(key);
            for (KeyRange r : sorted) {
                if (r.contains(k)) {
                    return r.virtualShard();
                }
            }
        }
        throw new UnroutableKeyException("Key " + key + " of unit " + unit.unit().getName()
                + " lies outside every configured range " + sorted + ". Fix: add a range covering it (setting "
                + unit.setting(RANGES) + ")");
    }

    @Override
    public Optional<Set<ShardId>> shardsForRange(Comparable<?> lower, boolean lowerInclusive,
                                                 Comparable<?> upper, boolean upperInclusive, UnitTopology unit) {
        BigInteger low = lower == null ? null : asInteger(lower, lowerInclusive ? 0 : 1);
        BigInteger high = upper == null ? null : asInteger(upper, upperInclusive ? 0 : -1);
        if (low == null && lower != null || high == null && upper != null) {
            return Optional.empty();
        }
        Set<ShardId> result = new LinkedHashSet<>();
        for (KeyRange range : sorted) {
            boolean below = high != null && range.from().compareTo(high) > 0;
            boolean above = low != null && range.to().compareTo(low) < 0;
            if (!below && !above) {
                result.add(unit.directory().shardOf(range.virtualShard()));
            }
        }
        return Optional.of(result);
    }

    private static BigInteger asInteger(Comparable<?> bound, int adjust) {
        if (!ShardKeys.isIntegralValue(bound)) {
            return null;
        }
        return ShardKeys.toBigInteger(bound).add(BigInteger.valueOf(adjust));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RangeSelection r && sorted.equals(r.sorted);
    }

    @Override
    public int hashCode() {
        return sorted.hashCode();
    }

    @Override
    public String toString() {
        return NAME + sorted;
    }
}
