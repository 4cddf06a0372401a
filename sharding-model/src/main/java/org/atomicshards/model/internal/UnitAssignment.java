package org.atomicshards.model.internal;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which atomic unit each entity hierarchy belongs to, as {@link UnitResolver} found it.
 *
 * @param owners    hierarchy top → root of its unit (a root maps to itself)
 * @param pulledBy  hierarchy top → the association that brought it into its unit; absent for roots and for
 *                  entities placed by their key alone
 * @param conflicts hierarchy top → the units (root, association) that reach it at the same distance
 */
record UnitAssignment(Map<String, String> owners, Map<String, Edge> pulledBy, Map<String, List<Reach>> conflicts) {

    /** One unit reaching a hierarchy through an association. */
    record Reach(String root, Edge via) {
    }

    Optional<String> ownerOf(String top) {
        return Optional.ofNullable(owners.get(top));
    }

    /** In some unit, or claimed by several: either way its rows are sharded. */
    boolean isSharded(String top) {
        return owners.containsKey(top) || conflicts.containsKey(top);
    }
}
