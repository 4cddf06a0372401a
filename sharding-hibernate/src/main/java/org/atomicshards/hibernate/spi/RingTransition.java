package org.atomicshards.hibernate.spi;

import java.util.List;
import java.util.Objects;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;

/**
 * A consistent-hash ring part-way through a change of members ({@code ShardAdmin.addRingMember}): the keys whose
 * owner differs between the ring in force ({@link UnitTopology#ringMembers()}) and {@link #members()} move batch by
 * batch, one batch per shard they leave. A key belongs to its owner under {@link #members()} once the shard it leaves
 * is in {@link #switchedFrom()}, and to its owner under the ring in force until then.
 *
 * @param members      the ring's members once the change is done
 * @param switchedFrom the shards whose leaving keys have switched to their new owner
 */
public record RingTransition(List<ShardId> members, Set<ShardId> switchedFrom) {

    public RingTransition {
        members = List.copyOf(Objects.requireNonNull(members, "members"));
        switchedFrom = Set.copyOf(Objects.requireNonNull(switchedFrom, "switchedFrom"));
    }

    /** The owner of a key that the ring in force gives to {@code before} and {@link #members()} to {@code after}. */
    public ShardId owner(ShardId before, ShardId after) {
        return before.equals(after) || !switchedFrom.contains(before) ? before : after;
    }
}
