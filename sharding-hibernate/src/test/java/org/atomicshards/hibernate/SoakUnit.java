package org.atomicshards.hibernate;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the soak test knows of one {@code User} unit: whether it must exist, the email it must carry and the members it
 * must and may have. A churn unit is changed by one writer thread only, and read by the checker after the writers
 * ended (their {@code join} publishes it); a stable unit is built from the oracle's rows and never changes.
 */
final class SoakUnit {

    /** Whether the unit's root must be on a shard. */
    enum Presence {
        /** Its creation was acknowledged. */
        REQUIRED,
        /** Its creation failed in a way that does not tell whether it committed. */
        POSSIBLE,
        /** Its creation failed with nothing written. */
        ABSENT
    }

    final long key;
    Presence presence;
    /** The last acknowledged email (the attempted one while {@link Presence#POSSIBLE}). */
    String email;
    /** Emails attempted after {@link #email} whose writes failed without telling whether they committed. */
    final Set<String> possibleEmails = new HashSet<>();
    /** Members (by {@link SoakTable.Row#identity()}) whose insert was acknowledged and that were not deleted. */
    final Map<String, String> members = new HashMap<>();
    /** Members whose insert or delete failed without telling whether it committed. */
    final Map<String, String> possibleMembers = new HashMap<>();
    /** Members deleted with an acknowledgement, or whose insert was rolled back: on no shard. */
    final Set<String> goneMembers = new HashSet<>();
    int updates;

    SoakUnit(long key, Presence presence, String email) {
        this.key = key;
        this.presence = presence;
        this.email = email;
    }

    /** The emails the unit may carry now. */
    Set<String> acceptableEmails() {
        Set<String> acceptable = new HashSet<>(possibleEmails);
        acceptable.add(email);
        return acceptable;
    }

    /** Whether the state has no ambiguity left: exact member counts and email are known. */
    boolean exact() {
        return presence == Presence.REQUIRED && possibleEmails.isEmpty() && possibleMembers.isEmpty();
    }

    /** Members of one table that must be there. */
    long memberCount(SoakTable table) {
        return members.keySet().stream().filter(identity -> identity.startsWith(table.name() + ":")).count();
    }

    /** A unit exactly as these rows (one unit's root and members, read from the oracle) show it. */
    static SoakUnit of(long key, List<SoakTable.Row> rows) {
        SoakUnit unit = new SoakUnit(key, Presence.REQUIRED, null);
        for (SoakTable.Row row : rows) {
            if (row.table() == SoakTable.USER) {
                unit.email = row.value();
            } else {
                unit.members.put(row.identity(), row.value());
            }
        }
        if (unit.email == null) {
            throw new IllegalArgumentException("No root row among the rows of unit " + key + ": " + rows);
        }
        return unit;
    }
}
