package org.atomicshards.hibernate.internal.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.internal.reshard.move.UnitKeyColumns;
import org.atomicshards.hibernate.internal.reshard.move.UnitTables;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.metamodel.mapping.AttributeMapping;
import org.hibernate.metamodel.mapping.ForeignKeyDescriptor;
import org.hibernate.metamodel.mapping.internal.ToOneAttributeMapping;
import org.hibernate.persister.entity.AbstractEntityPersister;
import org.hibernate.persister.entity.EntityPersister;

/**
 * Where a member table's key comes from, read from the mapping: the many-to-one of its entity to another entity of the
 * same unit, whose row holds the same key. A key column is filled from the referenced row's key column; applied in the
 * unit's foreign-key order, this walks the whole chain to the root (a line's key from its order, the order's from its
 * customer).
 */
final class KeyParents {

    /**
     * A member table's foreign key to a row of the same unit, every name as mapped.
     *
     * @param foreignKey the column of the member table referencing the parent row
     * @param parentTable the parent's table
     * @param referenced the parent's column the foreign key references
     * @param parentKey the parent's column holding the unit's key
     */
    record Parent(String foreignKey, String parentTable, String referenced, String parentKey) {
    }

    private KeyParents() {
    }

    /**
     * Every member table of {@code unit} with a single-column foreign key to another member table, by table name as
     * mapped. A table without one is absent: its key cannot be derived from the rows it references.
     */
    static Map<String, Parent> of(UnitRoutingImpl unit) {
        Map<String, String> keyOfTable = new LinkedHashMap<>();
        for (UnitKeyColumns.KeyColumn key : UnitKeyColumns.of(unit)) {
            keyOfTable.putIfAbsent(key.table(), key.column());
        }
        Map<Class<?>, String> tableOfType = new LinkedHashMap<>();
        for (Class<?> type : unit.memberTypes()) {
            if (unit.memberKey(type).persister() instanceof AbstractEntityPersister entity) {
                String table = UnitTables.identifierTableName(entity);
                if (table != null) {
                    tableOfType.put(type, table);
                }
            }
        }
        Map<String, Parent> parents = new LinkedHashMap<>();
        for (Map.Entry<Class<?>, String> member : tableOfType.entrySet()) {
            EntityPersister persister = unit.memberKey(member.getKey()).persister();
            for (int a = 0; a < persister.getNumberOfAttributeMappings(); a++) {
                AttributeMapping attribute = persister.getAttributeMapping(a);
                if (!(attribute instanceof ToOneAttributeMapping toOne)
                        || toOne.getSideNature() != ForeignKeyDescriptor.Nature.KEY) {
                    continue;
                }
                String parentTable = tableOfType.get(toOne.getEntityMappingType().getJavaType().getJavaTypeClass());
                ForeignKeyDescriptor fk = toOne.getForeignKeyDescriptor();
                List<String> keyColumns = new ArrayList<>();
                List<String> targetColumns = new ArrayList<>();
                fk.visitKeySelectables((i, selectable) -> keyColumns.add(selectable.getSelectionExpression()));
                fk.visitTargetSelectables((i, selectable) -> targetColumns.add(selectable.getSelectionExpression()));
                if (parentTable == null || keyOfTable.get(parentTable) == null
                        || parentTable.equals(member.getValue()) || keyColumns.size() != 1
                        || targetColumns.size() != 1 || !member.getValue().equals(fk.getKeyTable())
                        || keyColumns.get(0).equalsIgnoreCase(keyOfTable.get(member.getValue()))) {
                    continue; // not a row of the unit, several columns, or the key itself (nothing to derive)
                }
                parents.putIfAbsent(member.getValue(), new Parent(keyColumns.get(0), parentTable,
                        targetColumns.get(0), keyOfTable.get(parentTable)));
            }
        }
        return parents;
    }
}
