package org.atomicshards.hibernate.spi;

import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;

/**
 * A consistent-hash ring part-way through a change of members ({@code ShardAdmin.addRingMember} or
 * {@code removeRingMember}): the keys whose owner differs between the ring in force ({@link UnitTopology#ringMembers()})
 * and {@link #members()} move batch by batch, one batch per pair of old and new owner. A key belongs to its owner
 * under {@link #members()} once its pair is in {@link #switched()}, and to its owner under the ring in force until then.
 *
 * @param members  the ring's members once the change is done
 * @param switched the pairs of old and new owner whose keys have switched
 */
public record RingTransition(List<ShardId> members, Set<Handover> switched) {

    public RingTransition {
        members = List.copyOf(Objects.requireNonNull(members, "members"));
        switched = Set.copyOf(Objects.requireNonNull(switched, "switched"));
    }

    /** The keys one shard hands to another in one batch of a ring change. */
    public record Handover(ShardId from, ShardId to) {

        public Handover {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
        }
    }

    /** The owner of a key that the ring in force gives to {@code before} and {@link #members()} to {@code after}. */
    public ShardId owner(ShardId before, ShardId after) {
        return before.equals(after) || !switched.contains(new Handover(before, after)) ? before : after;
    }
}
