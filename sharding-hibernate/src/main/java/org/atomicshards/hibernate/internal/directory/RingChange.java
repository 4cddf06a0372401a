package org.atomicshards.hibernate.internal.directory;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.spi.RingTransition.Handover;

/**
 * A consistent-hash ring gaining or losing a member, as the move journal records it ({@code as_move}, kind
 * {@link #JOIN} or {@link #LEAVE}, this record in its {@code checkpoint} column): the unit, the member, and the other
 * members in batch order. A joining member takes, in batch {@code i}, the keys the new ring gives it from
 * {@code others[i]}; a leaving member gives, in batch {@code i}, to {@code others[i]} the keys the new ring gives that
 * member. The directory routes by it while the operation is unfinished.
 */
public record RingChange(String unitName, ShardId member, List<ShardId> others, boolean joining) {

    /** The journal's kind of a ring gaining a member. */
    public static final String JOIN = "JOIN_RING";
    /** The journal's kind of a ring losing a member. */
    public static final String LEAVE = "LEAVE_RING";

    /** The journal states of a batch whose keys switched to their new owner. */
    private static final Set<String> SWITCHED = Set.of("SWITCHED", "PROMOTED", "RELEASED");

    public RingChange {
        others = List.copyOf(others);
    }

    /** Whether {@code kind} is a journal kind of a ring change. */
    public static boolean isRingChange(String kind) {
        return JOIN.equals(kind) || LEAVE.equals(kind);
    }

    public String kind() {
        return joining ? JOIN : LEAVE;
    }

    /** The text kept in the journal; the unit name comes last and may hold the separator. */
    public String encode() {
        return member.name() + "|" + String.join(",", others.stream().map(ShardId::name).toList()) + "|" + unitName;
    }

    public static RingChange decode(String kind, String text) {
        String[] parts = text.split("\\|", 3);
        return new RingChange(parts[2], ShardId.of(parts[0]),
                Arrays.stream(parts[1].split(",")).map(ShardId::of).toList(), JOIN.equals(kind));
    }

    /** The batches, in order. */
    public int batches() {
        return others.size();
    }

    /** Who hands keys to whom in batch {@code batch}. */
    public Handover handover(int batch) {
        return joining ? new Handover(others.get(batch), member) : new Handover(member, others.get(batch));
    }

    /** The ring's members once the change is done, in name order: the others, and the member if it joins. */
    public List<ShardId> membersAfter() {
        Set<ShardId> after = new TreeSet<>(Comparator.comparing(ShardId::name));
        after.addAll(others);
        if (joining) {
            after.add(member);
        }
        return List.copyOf(after);
    }

    /** The handovers that have switched when the journal is at {@code batch} in {@code state}. */
    public Set<Handover> switched(int batch, String state) {
        Set<Handover> switched = new HashSet<>();
        for (int i = 0; i < Math.min(batch, batches()); i++) {
            switched.add(handover(i));
        }
        if (batch < batches() && SWITCHED.contains(state)) {
            switched.add(handover(batch));
        }
        return switched;
    }

    /** A change read from the journal with the handovers that switched so far. */
    public record Progress(RingChange change, Set<Handover> switched) {
    }
}
