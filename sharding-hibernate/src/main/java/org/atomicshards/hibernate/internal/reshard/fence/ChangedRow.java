package org.atomicshards.hibernate.internal.reshard.fence;

import java.math.BigInteger;
import java.util.Set;
import java.util.UUID;

import org.atomicshards.hibernate.internal.reshard.move.RowCopier;
import org.atomicshards.hibernate.internal.reshard.move.UnitTables;
import org.hibernate.metamodel.mapping.BasicValuedModelPart;
import org.hibernate.persister.entity.AbstractEntityPersister;
import org.hibernate.persister.entity.EntityPersister;

/**
 * One entity row a write changed, as the change log names it: the entity's identifier table and its identifier as
 * text. The catch-up copies the row's family again: the row, and the rows that hang off it by that identifier (a
 * joined subclass's or secondary table, a collection table), so that what a move copies under its freeze grows with
 * the rows written, not with the size of their units.
 *
 * @param table the identifier table, as mapped
 * @param id the identifier, as text
 */
public record ChangedRow(String table, String id) {

    /**
     * The identifier types whose text the catch-up turns back into the value ({@link RowCopier#typed}); a row with an
     * identifier of another type is copied with its whole unit.
     */
    public static final Set<Class<?>> NAMEABLE = Set.of(Long.class, long.class, Integer.class, int.class, Short.class,
            short.class, Byte.class, byte.class, BigInteger.class, UUID.class, String.class);

    /** The longest identifier text the change log holds; a longer one is logged as its whole unit. */
    public static final int MAX_ID_LENGTH = 255;

    /**
     * The row of the entity of {@code persister} with {@code id}, or null when the change log cannot name it (no
     * identifier yet, an identifier of several columns or of a type not {@link #NAMEABLE}, or one longer than
     * {@value #MAX_ID_LENGTH} characters): the write is then logged as its whole unit.
     */
    static ChangedRow of(EntityPersister persister, Object id) {
        if (id == null || !(persister.getIdentifierMapping() instanceof BasicValuedModelPart)
                || !NAMEABLE.contains(id.getClass()) || !(persister instanceof AbstractEntityPersister entity)) {
            return null;
        }
        String table = UnitTables.identifierTableName(entity);
        String text = id.toString();
        return table == null || text.length() > MAX_ID_LENGTH ? null : new ChangedRow(table, text);
    }
}
