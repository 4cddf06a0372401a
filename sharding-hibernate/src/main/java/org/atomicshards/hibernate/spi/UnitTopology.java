package org.atomicshards.hibernate.spi;

import java.util.List;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardingSettings;

/**
 * What a {@link SelectionPolicy} may consult about one atomic unit: the virtual→physical map, the unit's ring
 * members and its recorded placements. The runtime passes the topology in force; resharding passes the topology
 * before and after a change to ask which keys move. Thread-safe; answers from memory except where a method says
 * otherwise.
 */
public interface UnitTopology {

    /** The unit's root entity class; never null. */
    Class<?> unit();

    /** The Java type of the unit's shard key; never null. */
    Class<?> keyType();

    /** The virtual→physical map (and the virtual shard count); never null. */
    ShardDirectory directory();

    /**
     * The physical shards a policy without virtual shards spreads the unit over (the members of a consistent-hash
     * ring), in the order recorded. The runtime records them in the catalog on first use (the shards owning virtual
     * shards at that moment), so that a shard added to the settings later moves no key by itself. May write to the
     * catalog on its first call; call it from {@link SelectionPolicy#prepare} to do that at boot.
     */
    List<ShardId> ringMembers();

    /**
     * The change of {@link #ringMembers()} under way, if any (read it before {@link #ringMembers()}: the members are
     * updated before a finished change is dropped); null when the ring is not changing.
     */
    default RingTransition ringTransition() {
        return null;
    }

    /**
     * The unit's recorded placements (for policies that {@linkplain SelectionPolicy#recordsPlacements record them}).
     */
    RecordedPlacements placements();

    /** The full name of one of the unit's settings, e.g. {@code atomicshards.unit.com.acme.Customer.ranges}. */
    default String setting(String option) {
        return ShardingSettings.UNIT_PREFIX + unit().getName() + "." + option;
    }
}
