package org.atomicshards.hibernate.internal.directory;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.atomicshards.hibernate.ShardId;

/**
 * A consistent-hash ring gaining a member, as the move journal records it ({@code as_move}, kind {@link #KIND}, this
 * record in its {@code checkpoint} column): the unit, the new member, and the ring's members before the change in
 * batch order, each batch moving the keys that one of them gives to the new member. The directory routes by it
 * while the operation is unfinished.
 */
public record RingChange(String unitName, ShardId member, List<ShardId> sources) {

    /** The journal's kind of a ring gaining a member. */
    public static final String KIND = "ADD_RING_MEMBER";

    /** The journal states of a batch whose keys switched to the new member. */
    private static final Set<String> SWITCHED = Set.of("SWITCHED", "PROMOTED", "RELEASED");

    public RingChange {
        sources = List.copyOf(sources);
    }

    /** The text kept in the journal; the unit name comes last and may hold the separator. */
    public String encode() {
        return member.name() + "|" + String.join(",", sources.stream().map(ShardId::name).toList()) + "|" + unitName;
    }

    public static RingChange decode(String text) {
        String[] parts = text.split("\\|", 3);
        return new RingChange(parts[2], ShardId.of(parts[0]),
                Arrays.stream(parts[1].split(",")).map(ShardId::of).toList());
    }

    /** The sources whose keys have switched when the journal is at {@code batch} in {@code state}. */
    public Set<ShardId> switchedFrom(int batch, String state) {
        Set<ShardId> switched = new HashSet<>(sources.subList(0, Math.min(batch, sources.size())));
        if (batch < sources.size() && SWITCHED.contains(state)) {
            switched.add(sources.get(batch));
        }
        return switched;
    }

    /** A change read from the journal with how far it got. */
    public record Progress(RingChange change, Set<ShardId> switchedFrom) {
    }
}
