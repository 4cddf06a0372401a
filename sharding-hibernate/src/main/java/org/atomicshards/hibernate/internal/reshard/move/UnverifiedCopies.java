package org.atomicshards.hibernate.internal.reshard.move;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What a batch copied since its last equal comparison with the source: whole units (by key), and changed rows (by the
 * entity table and identifier of each row family). The freeze compares exactly these again, so its work follows what
 * the writers changed, not the size of the units they changed.
 */
public final class UnverifiedCopies {

    private final Map<RowCopier, Set<Object>> units = new HashMap<>();
    private final Map<RowCopier, Map<String, Map<String, Object>>> rows = new HashMap<>();

    void addUnits(RowCopier copier, Collection<Object> keys) {
        units.computeIfAbsent(copier, c -> new HashSet<>()).addAll(keys);
    }

    /** @param keys the unit key of each row identifier copied */
    void addRows(RowCopier copier, String table, Map<String, Object> keys) {
        rows.computeIfAbsent(copier, c -> new HashMap<>()).computeIfAbsent(table, t -> new HashMap<>()).putAll(keys);
    }

    /** The units copied whole, by copier. */
    Map<RowCopier, Set<Object>> units() {
        return units;
    }

    /** The rows copied, by copier, then by entity table: each row's identifier with its unit's key. */
    Map<RowCopier, Map<String, Map<String, Object>>> rows() {
        return rows;
    }

    /** Units plus rows, for messages. */
    int size() {
        return units.values().stream().mapToInt(Set::size).sum()
                + rows.values().stream().flatMap(t -> t.values().stream()).mapToInt(Map::size).sum();
    }

    void clear() {
        units.clear();
        rows.clear();
    }
}
