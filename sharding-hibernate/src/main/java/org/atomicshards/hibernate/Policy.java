package org.atomicshards.hibernate;

import java.util.Objects;

import org.atomicshards.hibernate.spi.SelectionPolicy;

/**
 * The sharding policy of one atomic unit: one selection, key generation, access and combine strategy (seed 004).
 * Immutable; the {@code with*} methods return a copy. Start from {@link Policies}.
 *
 * <p>Resolution follows from selection: computed selections (hash, modulo, range, consistent hash, Snowflake)
 * resolve a key to exactly one shard; selections that record placements (lookup, round robin) resolve through the
 * placements recorded in the shard directory. Access and combine apply where the shard of a row must be found by
 * asking shards, e.g. {@code find} by an id that neither is nor encodes the key.
 */
public final class Policy {

    /** Default number of ring positions per physical shard of the {@code consistent_hash} selection. */
    public static final int DEFAULT_RING_NODES = 150;

    private final SelectionPolicy selection;
    private final KeyGeneration keyGeneration;
    private final Access access;
    private final Combine combine;

    Policy(SelectionPolicy selection, KeyGeneration keyGeneration, Access access, Combine combine) {
        this.selection = Objects.requireNonNull(selection, "selection");
        this.keyGeneration = Objects.requireNonNull(keyGeneration, "keyGeneration");
        this.access = Objects.requireNonNull(access, "access");
        this.combine = Objects.requireNonNull(combine, "combine");
    }

    /** How a key maps to a shard: the configured selection policy. */
    public SelectionPolicy selection() {
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

    /** A copy that generates keys with {@code generation}. */
    public Policy withKeyGeneration(KeyGeneration generation) {
        return new Policy(selection, generation, access, combine);
    }

    /** A copy that asks shards with {@code newAccess}. */
    public Policy withAccess(Access newAccess) {
        return new Policy(selection, keyGeneration, newAccess, combine);
    }

    /** A copy that combines answers with {@code newCombine}. */
    public Policy withCombine(Combine newCombine) {
        return new Policy(selection, keyGeneration, access, newCombine);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Policy p && selection.equals(p.selection) && keyGeneration == p.keyGeneration
                && access == p.access && combine == p.combine;
    }

    @Override
    public int hashCode() {
        return Objects.hash(selection, keyGeneration, access, combine);
    }

    @Override
    public String toString() {
        return "Policy[selection=" + selection + ", keyGeneration=" + keyGeneration + ", access=" + access
                + ", combine=" + combine + "]";
    }
}
