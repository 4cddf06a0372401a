package org.atomicshards.hibernate;

import java.util.List;
import java.util.Objects;

/**
 * The sharding policy of one atomic unit: one selection, key generation, access and combine strategy (seed 004).
 * Immutable; the {@code with*} methods return a copy. Start from {@link Policies}.
 *
 * <p>Resolution follows from selection: computed selections (hash, modulo, range, consistent hash, Snowflake)
 * resolve a key to exactly one shard; directory selections (lookup, round robin) resolve through the placements
 * recorded in the shard directory. Access and combine apply where the shard of a row must be found by asking
 * shards, e.g. {@code find} by an id that neither is nor encodes the key.
 */
public final class Policy {

    /** Default number of ring positions per physical shard for {@link Selection#CONSISTENT_HASH}. */
    public static final int DEFAULT_RING_NODES = 150;

    private final Selection selection;
    private final KeyGeneration keyGeneration;
    private final Access access;
    private final Combine combine;
    private final List<KeyRange> ranges;
    private final int ringNodes;

    Policy(Selection selection, KeyGeneration keyGeneration, Access access, Combine combine,
           List<KeyRange> ranges, int ringNodes) {
        this.selection = Objects.requireNonNull(selection, "selection");
        this.keyGeneration = Objects.requireNonNull(keyGeneration, "keyGeneration");
        this.access = Objects.requireNonNull(access, "access");
        this.combine = Objects.requireNonNull(combine, "combine");
        this.ranges = List.copyOf(ranges);
        this.ringNodes = ringNodes;
    }

    public Selection selection() {
        return selection;
    }

    public KeyGeneration keyGeneration() {
        return keyGeneration;
    }

    public Access access() {
        return access;
    }

    public Combine combine() {
        return combine;
    }

    /** The key ranges of a {@link Selection#RANGE} policy; empty for other selections. */
    public List<KeyRange> ranges() {
        return ranges;
    }

    /** Ring positions per physical shard of a {@link Selection#CONSISTENT_HASH} policy. */
    public int ringNodes() {
        return ringNodes;
    }

    /** A copy that generates keys with {@code generation}. */
    public Policy withKeyGeneration(KeyGeneration generation) {
        return new Policy(selection, generation, access, combine, ranges, ringNodes);
    }

    /** A copy that asks shards with {@code newAccess}. */
    public Policy withAccess(Access newAccess) {
        return new Policy(selection, keyGeneration, newAccess, combine, ranges, ringNodes);
    }

    /** A copy that combines answers with {@code newCombine}. */
    public Policy withCombine(Combine newCombine) {
        return new Policy(selection, keyGeneration, access, newCombine, ranges, ringNodes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Policy p && selection == p.selection && keyGeneration == p.keyGeneration
                && access == p.access && combine == p.combine && ranges.equals(p.ranges) && ringNodes == p.ringNodes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(selection, keyGeneration, access, combine, ranges, ringNodes);
    }

    @Override
    public String toString() {
        return "Policy[selection=" + selection + ", keyGeneration=" + keyGeneration + ", access=" + access
                + ", combine=" + combine + (ranges.isEmpty() ? "" : ", ranges=" + ranges)
                + (selection == Selection.CONSISTENT_HASH ? ", ringNodes=" + ringNodes : "") + "]";
    }
}
