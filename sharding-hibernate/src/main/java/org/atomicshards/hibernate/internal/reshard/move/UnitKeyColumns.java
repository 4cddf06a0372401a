package org.atomicshards.hibernate.internal.reshard.move;

import java.util.List;

import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;

/**
 * The tables of one atomic unit that carry the unit's key in a column of their own, as a move finds them
 * ({@link UnitTables}): the columns that must hold a key in every row for the unit's rows to be found, copied and
 * fenced. Tables whose rows hang off another table's (collection tables, joined subclass tables) are left out: their
 * key is their owner's.
 */
public final class UnitKeyColumns {

    /** A table and its key column, as mapped (quoted as the mapping quotes them), in foreign-key order. */
    public record KeyColumn(String table, String column) {
    }

    private UnitKeyColumns() {
    }

    /**
     * @throws UnsupportedOperationException naming the entity and table if a move could not copy the unit's rows
     */
    public static List<KeyColumn> of(UnitRoutingImpl unit) {
        return UnitTables.of(unit).tables().stream()
                .filter(table -> table.owner() == null)
                .map(table -> new KeyColumn(table.name(), table.keyColumn()))
                .toList();
    }
}
