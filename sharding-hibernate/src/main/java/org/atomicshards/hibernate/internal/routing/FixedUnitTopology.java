package org.atomicshards.hibernate.internal.routing;

import java.util.List;
import java.util.Objects;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.spi.RecordedPlacements;
import org.atomicshards.hibernate.spi.ShardDirectory;
import org.atomicshards.hibernate.spi.UnitTopology;

/**
 * A unit's topology given explicitly: the "before" or "after" of a topology change that resharding asks a policy
 * about ({@link org.atomicshards.hibernate.spi.SelectionPolicy#moves}), e.g. the topology in force with one more ring
 * member ({@link #withRingMembers}) or another map ({@link #withDirectory}).
 */
public record FixedUnitTopology(Class<?> unit, Class<?> keyType, ShardDirectory directory, List<ShardId> ringMembers,
                                RecordedPlacements placements) implements UnitTopology {

    public FixedUnitTopology {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(keyType, "keyType");
        Objects.requireNonNull(directory, "directory");
        ringMembers = List.copyOf(ringMembers);
        Objects.requireNonNull(placements, "placements");
    }

    /** A snapshot of {@code topology}: its map copied, its ring members and placements as they are. */
    public static FixedUnitTopology copyOf(UnitTopology topology) {
        return new FixedUnitTopology(topology.unit(), topology.keyType(),
                VirtualShardMap.copyOf(topology.directory()), topology.ringMembers(), topology.placements());
    }

    /** This topology with another virtual→physical map. */
    public FixedUnitTopology withDirectory(ShardDirectory other) {
        return new FixedUnitTopology(unit, keyType, other, ringMembers, placements);
    }

    /** This topology with other ring members. */
    public FixedUnitTopology withRingMembers(List<ShardId> members) {
        return new FixedUnitTopology(unit, keyType, directory, members, placements);
    }
}
