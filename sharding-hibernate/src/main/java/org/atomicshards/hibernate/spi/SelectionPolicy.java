package org.atomicshards.hibernate.spi;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import org.atomicshards.hibernate.Access;
import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.ShardId;

/**
 * A selection policy (seed 004's selection strategy): how the key of an atomic unit maps to a virtual shard or a
 * physical shard. One class per policy; the built-ins ({@code hash}, {@code modulo}, {@code range},
 * {@code consistent_hash}, {@code lookup}, {@code round_robin}, {@code snowflake}) implement it like any other.
 *
 * <p><b>Life cycle.</b> A policy is registered once, as a prototype: built-ins by the library, user policies through
 * {@code META-INF/services/org.atomicshards.hibernate.spi.SelectionPolicy} (a public no-argument constructor) or
 * {@link org.atomicshards.hibernate.ShardedSessionFactoryBuilder#selectionPolicy}. At boot, for every unit whose
 * {@code atomicshards.unit.<Root>.policy} names it, the prototype's {@link #configure} reads the unit's options and
 * returns the configured instance of that unit; the runtime then calls {@link #prepare} once, and afterwards only
 * the routing methods. The builder, the settings and Spring Boot's properties all end in {@link #configure}, so an
 * option is parsed and validated in one place.
 *
 * <p><b>Routing.</b> The routing methods receive the unit's {@link UnitTopology}: the virtual→physical map in
 * force, the unit's ring members and its recorded placements. They must not keep a topology between calls (the map
 * changes when virtual shards move, and resharding asks them about a topology that is not in force yet), but they
 * may cache what they derive from it as long as the answer always follows the topology passed.
 *
 * <p>Implementations are immutable after {@link #configure} (or keep only thread-safe state, like a round-robin
 * counter) and safe for concurrent use. The key passed to a routing method has already been checked: never null and
 * of the unit's key type.
 */
public interface SelectionPolicy {

    /** What {@link #virtualShardOf} returns when a key has no virtual shard. */
    int NO_VIRTUAL_SHARD = -1;

    /**
     * The policy's name in the settings ({@code atomicshards.unit.<Root>.policy=<name>}): lower case letters, digits
     * and {@code _}, starting with a letter; unique among the registered policies. Never null.
     */
    String name();

    /**
     * Reads and validates this policy's options for one unit and returns the configured policy for that unit (this
     * instance when the policy has neither options nor state). Called on the registered prototype, once per unit
     * that uses it, at boot or when Spring Boot binds its properties; nothing has been routed yet.
     *
     * <p>Every option the policy understands must be read through {@code options}: a unit setting that no policy
     * read fails the boot as unknown.
     *
     * @throws org.atomicshards.hibernate.ShardConfigurationException (from {@link PolicyOptions#invalid}) naming the
     *         setting, its value and the fix
     */
    SelectionPolicy configure(PolicyOptions options);

    /**
     * The options of this configured instance as setting values, such that {@code configure} on the prototype
     * reads them back into an equal policy. The builder writes them, so that a policy given as an object and one
     * given as settings go through the same validation. Empty by default.
     */
    default Map<String, String> options() {
        return Map.of();
    }

    /** The key generation of a unit using this policy unless its settings say otherwise. */
    default KeyGeneration defaultKeyGeneration() {
        return KeyGeneration.APPLICATION;
    }

    /** How shards are asked for a unit using this policy unless its settings say otherwise. */
    default Access defaultAccess() {
        return Access.SEQUENTIAL;
    }

    /**
     * Checks that the configured policy fits its unit (key type, virtual shard count) and prepares what it needs
     * from the directory (e.g. records a ring's members). Called exactly once per unit, at boot, after
     * {@link #configure} and before any routing method.
     *
     * @throws org.atomicshards.hibernate.ShardConfigurationException naming the setting and the fix when it does not
     *         fit (see {@link UnitTopology#setting})
     */
    default void prepare(UnitTopology unit) {
    }

    /**
     * Whether keys map to virtual shards, so that the directory's virtual→physical map decides their shard. A policy
     * that maps keys to physical shards directly (a consistent-hash ring) returns false and overrides
     * {@link #shardOf}.
     */
    default boolean usesVirtualShards() {
        return true;
    }

    /**
     * Whether the policy records where each unit lives ({@link UnitTopology#placements()}) instead of computing it
     * from the key: then {@link #shardOf} is null for a key never placed, a new unit is placed by
     * {@link #placeNew}, and a unit may be placed explicitly ({@code ShardedSessionFactory.place}).
     */
    default boolean recordsPlacements() {
        return false;
    }

    /**
     * The virtual shard of {@code key}: in {@code [0, unit.directory().virtualShards())}, or
     * {@link #NO_VIRTUAL_SHARD} when the policy does not use virtual shards or records placements and the key was
     * never placed.
     *
     * @throws org.atomicshards.hibernate.UnroutableKeyException if no shard can hold this key (e.g. outside every
     *         configured range); the message names the fix
     */
    int virtualShardOf(Object key, UnitTopology unit);

    /**
     * The physical shard owning {@code key} in {@code unit}'s topology, or null when the policy records placements
     * and the key was never placed. By default the owner of {@link #virtualShardOf}.
     *
     * @throws org.atomicshards.hibernate.UnroutableKeyException if no shard can hold this key
     */
    default ShardId shardOf(Object key, UnitTopology unit) {
        int virtualShard = virtualShardOf(key, unit);
        return virtualShard == NO_VIRTUAL_SHARD ? null : unit.directory().shardOf(virtualShard);
    }

    /**
     * The shard a new unit with this key goes to, recording its placement first when the policy records placements
     * (then the catalog is written; the first writer wins). By default {@link #shardOf}. Never null.
     *
     * @throws org.atomicshards.hibernate.UnroutableKeyException if the key cannot be placed (the message names the
     *         fix, e.g. place it explicitly first)
     */
    default ShardId placeNew(Object key, UnitTopology unit) {
        return Objects.requireNonNull(shardOf(key, unit), "shardOf of a computed policy");
    }

    /**
     * The shards that may hold keys between {@code lower} and {@code upper} (a null bound is unbounded), for a fan-out
     * with a range predicate on the key. Empty (the default) when the policy cannot narrow a range: every shard is
     * asked.
     */
    default Optional<Set<ShardId>> shardsForRange(Comparable<?> lower, boolean lowerInclusive,
                                                  Comparable<?> upper, boolean upperInclusive, UnitTopology unit) {
        return Optional.empty();
    }

    /**
     * The buckets a change of the virtual→physical map moves: the virtual shards whose owner differs between
     * {@code before} and {@code after}, ascending. Every unit whose key maps to one of them (for a policy that records
     * placements: every unit placed on one of them) changes shard; no other unit does. Empty for a policy that does
     * not use virtual shards, whose keys move only when its ring changes (see {@link #moves}).
     *
     * @throws IllegalArgumentException if the two maps have different virtual shard counts (a count never changes)
     */
    default Set<Integer> virtualShardsMovedBy(ShardDirectory before, ShardDirectory after) {
        if (before.virtualShards() != after.virtualShards()) {
            throw new IllegalArgumentException("The virtual shard count cannot change: " + before.virtualShards()
                    + " before, " + after.virtualShards() + " after");
        }
        Set<Integer> moved = new TreeSet<>();
        if (!usesVirtualShards()) {
            return moved;
        }
        for (int v = 0; v < before.virtualShards(); v++) {
            if (!before.shardOf(v).equals(after.shardOf(v))) {
                moved.add(v);
            }
        }
        return moved;
    }

    /**
     * Whether the unit with {@code key} changes shard when the topology changes from {@code before} to
     * {@code after} (the map, the ring members, or both): exactly the keys whose {@link #shardOf} differs. This is
     * the per-key truth a mover filters a source shard's units with; for policies with virtual shards it agrees with
     * {@link #virtualShardsMovedBy}. A key never placed by a policy that records placements does not move.
     */
    default boolean moves(Object key, UnitTopology before, UnitTopology after) {
        return !Objects.equals(shardOf(key, before), shardOf(key, after));
    }
}
