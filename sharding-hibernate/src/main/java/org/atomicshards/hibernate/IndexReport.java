package org.atomicshards.hibernate;

/**
 * What building, verifying or cleaning one index found. Counts only: the report names no value.
 *
 * @param index     the index, {@code <entity class>.<attribute>}
 * @param rows      rows of the entity read on the shards (rows whose attribute is null included)
 * @param entries   index entries read (by a verification) or written (by a build)
 * @param missing   rows holding a value whose entry does not name their unit: look-ups would miss them (a
 *                  verification of an index written only by this release finds none unless the index was never built)
 * @param stale     entries naming a unit that does not hold the value (left by writers that died, or in flight)
 * @param conflicts values of a unique index held by more than one unit (only rows written before the index existed
 *                  can be in that state): the entry names one of them, and look-ups find that one only
 * @param cleaned   stale entries deleted (older than the claim timeout, untouched since read)
 */
public record IndexReport(String index, long rows, long entries, long missing, long stale, long conflicts,
                          long cleaned) {

    /** Whether every row is found through the index and no value of a unique index is held twice. */
    public boolean isConsistent() {
        return missing == 0 && conflicts == 0;
    }
}
