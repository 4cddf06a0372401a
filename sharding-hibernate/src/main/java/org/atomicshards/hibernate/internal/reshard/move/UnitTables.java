package org.atomicshards.hibernate.internal.reshard.move;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.atomicshards.hibernate.internal.reshard.fence.ChangedRow;
import org.atomicshards.hibernate.internal.routing.MemberKey;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.metamodel.mapping.AttributeMapping;
import org.hibernate.metamodel.mapping.BasicValuedModelPart;
import org.hibernate.metamodel.mapping.EmbeddableValuedModelPart;
import org.hibernate.metamodel.mapping.ForeignKeyDescriptor;
import org.hibernate.metamodel.mapping.ModelPart;
import org.hibernate.metamodel.mapping.SelectableMapping;
import org.hibernate.metamodel.mapping.SelectableMappings;
import org.hibernate.metamodel.mapping.internal.ToOneAttributeMapping;
import org.hibernate.persister.collection.AbstractCollectionPersister;
import org.hibernate.persister.entity.AbstractEntityPersister;
import org.hibernate.persister.entity.EntityPersister;
import org.hibernate.persister.entity.mutation.EntityTableMapping;

/**
 * The tables holding one atomic unit's rows, each with the column carrying the unit's key (or, for a table whose rows
 * hang off another's, the owner row holding it: a collection table, a joined subclass's table, a secondary table), in
 * foreign-key order (a table after the tables it references), read from Hibernate's mapping model once per move.
 *
 * @param unit the unit's routing (name, key type, placement)
 * @param tables insert order; delete in reverse
 * @param rowKeys the identifier column of each entity table whose identifier is one basic column, by table name
 */
public record UnitTables(UnitRoutingImpl unit, List<Table> tables, Map<String, RowKey> rowKeys) {

    /** An entity table's identifier column and the identifier's Java type. */
    record RowKey(String column, Class<?> type) {
    }

    /**
     * The tables a {@link ChangedRow} of {@code table} is copied with: the entity table itself (its row by
     * identifier) and every table whose rows hang off that row by its identifier (a joined subclass's or secondary
     * table, a collection table). Null when the row cannot be copied alone: a table this unit does not hold, an
     * identifier of several columns, or a table hanging off another column of the row; such a row's whole unit is
     * copied instead.
     */
    RowFamily family(String table) {
        RowKey key = rowKeys.get(table);
        if (key == null) {
            return null;
        }
        Table entity = null;
        List<Table> dependents = new ArrayList<>();
        for (Table candidate : tables) {
            if (candidate.name().equals(table) && candidate.owner() == null) {
                entity = candidate;
            } else if (candidate.owner() != null && candidate.owner().table().equals(table)) {
                if (!candidate.owner().referenced().equalsIgnoreCase(key.column())) {
                    return null;
                }
                dependents.add(candidate);
            }
        }
        return entity == null ? null : new RowFamily(entity, key, List.copyOf(dependents));
    }

    /**
     * An entity table and the tables whose rows hang off its rows by identifier.
     *
     * @param dependents each looked up by its {@link Table#lookupColumn()}, the foreign key to the entity's row
     */
    record RowFamily(Table entity, RowKey key, List<Table> dependents) {
    }

    /**
     * One table: its name as mapped and where the unit's key is: in its own column ({@code keyColumn}), or, for a
     * collection table, a joined subclass's table or a secondary table, in the row of its {@code owner} that its
     * foreign key (or primary key) references.
     */
    record Table(String name, String keyColumn, Owner owner) {

        String staging() {
            return staging(name);
        }

        static String staging(String table) {
            return "as_in_" + table.replace("\"", "").replace("`", "");
        }

        /** The table ({@code staging} or live) aliased {@code t}, joined to its owner's table aliased {@code o}. */
        String from(boolean staging) {
            String table = staging ? staging() : name;
            return owner == null ? table + " t"
                    : table + " t join " + (staging ? staging(owner.table()) : owner.table()) + " o on t."
                    + owner.foreignKey() + " = o." + owner.referenced();
        }

        /**
         * The column of this table's own rows that the move looks them up by: the key column, or the foreign key to
         * its owner's row. The staging table is indexed on it.
         */
        String lookupColumn() {
            return owner == null ? keyColumn : owner.foreignKey();
        }

        /** The column holding the unit's key in {@link #from}. */
        String keyReference() {
            return owner == null ? "t." + keyColumn : "o." + owner.keyColumn();
        }

        /** A condition selecting this table's rows of {@code count} keys (bound as parameters), without aliases. */
        String rowsOfKeys(boolean staging, String placeholders) {
            return owner == null ? keyColumn + " in (" + placeholders + ")"
                    : owner.foreignKey() + " in (select " + owner.referenced() + " from "
                    + (staging ? staging(owner.table()) : owner.table()) + " where " + owner.keyColumn() + " in ("
                    + placeholders + "))";
        }
    }

    /**
     * The row another table's rows belong to: its owner's {@code table}, the {@code referenced} column its
     * {@code foreignKey} points at, and the owner's {@code keyColumn}.
     */
    record Owner(String table, String keyColumn, String foreignKey, String referenced) {
    }

    /**
     * @throws UnsupportedOperationException naming the entity and table if the unit has rows a move cannot copy yet
     *         (a key column outside the table its entity's rows are inserted into first, a table or collection joined
     *         through several columns): refusing is better than leaving them behind
     */
    static UnitTables of(UnitRoutingImpl unit) {
        Map<String, Table> byName = new LinkedHashMap<>();
        Map<String, Set<String>> references = new LinkedHashMap<>();
        Map<Class<?>, String> tableOfType = new LinkedHashMap<>();
        Map<String, RowKey> rowKeys = new LinkedHashMap<>();
        List<Class<?>> types = new ArrayList<>(unit.memberTypes());
        types.sort((a, b) -> a == unit.root() ? -1 : b == unit.root() ? 1 : a.getName().compareTo(b.getName()));
        for (Class<?> type : types) {
            MemberKey key = unit.memberKey(type);
            EntityPersister persister = key.persister();
            if (!(persister instanceof AbstractEntityPersister entity)) {
                throw unsupported(unit, type, "it is not mapped to tables");
            }
            SelectableMapping keyColumn = keyColumn(unit, type, key);
            String table = keyColumn.getContainingTableExpression();
            EntityTableMapping identifierTable = identifierTable(entity);
            if (identifierTable == null || !identifierTable.getTableName().equals(table)) {
                throw unsupported(unit, type, "its key column " + keyColumn.getSelectionExpression() + " is in table "
                        + table + ", not in the table its rows are inserted into first ("
                        + (identifierTable == null ? "none" : identifierTable.getTableName()) + ")");
            }
            tableOfType.put(type, table);
            byName.putIfAbsent(table, new Table(table, keyColumn.getSelectionExpression(), null));
            rowKey(entity, identifierTable).ifPresent(rowKey -> rowKeys.putIfAbsent(table, rowKey));
            addJoinedTables(unit, type, entity, identifierTable, byName.get(table), byName, references);
        }
        for (Class<?> type : types) {
            EntityPersister persister = unit.memberKey(type).persister();
            String table = tableOfType.get(type);
            for (int a = 0; a < persister.getNumberOfAttributeMappings(); a++) {
                AttributeMapping attribute = persister.getAttributeMapping(a);
                if (attribute instanceof ToOneAttributeMapping toOne
                        && toOne.getSideNature() == ForeignKeyDescriptor.Nature.KEY) {
                    String referenced = tableOfType.get(toOne.getEntityMappingType().getJavaType().getJavaTypeClass());
                    if (referenced != null && !referenced.equals(table)) {
                        references.computeIfAbsent(table, t -> new LinkedHashSet<>()).add(referenced);
                    }
                }
            }
        }
        addCollectionTables(unit, types, tableOfType, byName, references);
        List<Table> ordered = new ArrayList<>();
        Set<String> done = new LinkedHashSet<>();
        for (String table : byName.keySet()) {
            visit(table, byName, references, done, new LinkedHashSet<>(), ordered);
        }
        return new UnitTables(unit, List.copyOf(ordered), Map.copyOf(rowKeys));
    }

    /** The identifier column of an entity whose identifier is one basic column, with its Java type. */
    private static Optional<RowKey> rowKey(AbstractEntityPersister entity, EntityTableMapping table) {
        Class<?> type = entity.getIdentifierMapping().getJavaType().getJavaTypeClass();
        if (!(entity.getIdentifierMapping() instanceof BasicValuedModelPart) || !ChangedRow.NAMEABLE.contains(type)) {
            return Optional.empty();
        }
        List<String> columns = new ArrayList<>();
        table.getKeyMapping().forEachSelectable((index, selectable) -> columns.add(selectable.getSelectionExpression()));
        return columns.size() != 1 ? Optional.empty() : Optional.of(new RowKey(columns.get(0), type));
    }

    /** The table an entity's rows are inserted into first (the one holding its identifier), or null. */
    public static String identifierTableName(AbstractEntityPersister entity) {
        EntityTableMapping mapping = identifierTable(entity);
        return mapping == null ? null : mapping.getTableName();
    }

    private static EntityTableMapping identifierTable(AbstractEntityPersister entity) {
        for (EntityTableMapping mapping : entity.getTableMappings()) {
            if (mapping.isIdentifierTable()) {
                return mapping;
            }
        }
        return null;
    }

    /**
     * The other tables of an entity spanning several (a joined subclass's tables up its hierarchy, secondary tables),
     * after its primary table: their rows share the primary row's identifier, so they belong to its unit.
     */
    private static void addJoinedTables(UnitRoutingImpl unit, Class<?> type, AbstractEntityPersister entity,
                                        EntityTableMapping primaryMapping, Table primary, Map<String, Table> byName,
                                        Map<String, Set<String>> references) {
        String primaryKey = singleColumn(unit, type, "table " + primary.name(), primaryMapping.getKeyMapping());
        for (EntityTableMapping mapping : entity.getTableMappings()) {
            String name = mapping.getTableName();
            if (name.equals(primary.name()) || byName.containsKey(name)) {
                continue;
            }
            String joinColumn = singleColumn(unit, type, "table " + name, mapping.getKeyMapping());
            byName.put(name, new Table(name, null, new Owner(primary.name(), primary.keyColumn(), joinColumn,
                    primaryKey)));
            references.computeIfAbsent(name, t -> new LinkedHashSet<>()).add(primary.name());
        }
    }

    /**
     * The collection tables (element collections, many-to-many and join-table one-to-many) of the unit's entities,
     * each after its owner's table: their rows belong to the unit of the owner row their foreign key references.
     */
    private static void addCollectionTables(UnitRoutingImpl unit, List<Class<?>> types,
                                            Map<Class<?>, String> tableOfType, Map<String, Table> byName,
                                            Map<String, Set<String>> references) {
        EntityPersister any = unit.memberKey(unit.root()).persister();
        any.getFactory().getMappingMetamodel().forEachCollectionDescriptor(collection -> {
            Class<?> ownerType = collection.getOwnerEntityPersister().getMappedClass();
            if (collection.isOneToMany() || !types.contains(ownerType)) {
                return;
            }
            if (!(collection instanceof AbstractCollectionPersister persister)) {
                throw unsupported(unit, ownerType, "its collection '" + collection.getRole()
                        + "' is not mapped to a table");
            }
            String ownerTable = tableOfType.get(ownerType);
            ForeignKeyDescriptor key = collection.getAttributeMapping().getKeyDescriptor();
            String role = "collection '" + collection.getRole() + "'";
            String foreignKey = singleColumn(unit, ownerType, role, key.getKeyPart());
            String referenced = singleColumn(unit, ownerType, role, key.getTargetPart());
            Owner owner = new Owner(ownerTable, byName.get(ownerTable).keyColumn(), foreignKey, referenced);
            byName.putIfAbsent(persister.getTableName(), new Table(persister.getTableName(), null, owner));
            references.computeIfAbsent(persister.getTableName(), t -> new LinkedHashSet<>()).add(ownerTable);
        });
    }

    /** @param what the collection or table, for the message */
    private static String singleColumn(UnitRoutingImpl unit, Class<?> type, String what, SelectableMappings part) {
        List<String> columns = new ArrayList<>();
        part.forEachSelectable((index, selectable) -> columns.add(selectable.getSelectionExpression()));
        if (columns.size() != 1) {
            throw unsupported(unit, type, "its " + what + " references its owner through " + columns.size()
                    + " columns");
        }
        return columns.get(0);
    }

    private static void visit(String table, Map<String, Table> byName, Map<String, Set<String>> references,
                              Set<String> done, Set<String> path, List<Table> ordered) {
        if (done.contains(table) || !path.add(table)) {
            return; // a cycle of foreign keys: the order among its tables is left as found
        }
        for (String referenced : references.getOrDefault(table, Set.of())) {
            visit(referenced, byName, references, done, path, ordered);
        }
        done.add(table);
        ordered.add(byName.get(table));
    }

    private static SelectableMapping keyColumn(UnitRoutingImpl unit, Class<?> type, MemberKey key) {
        EntityPersister persister = key.persister();
        String[] segments = key.path().split("\\.");
        ModelPart part = segments[0].equals(persister.getIdentifierPropertyName())
                ? persister.getIdentifierMapping()
                : persister.findSubPart(segments[0], null);
        for (int i = 1; i < segments.length && part != null; i++) {
            if (part instanceof ToOneAttributeMapping toOne) {
                break; // the key is the root's id, held here in the foreign key column
            }
            part = part instanceof EmbeddableValuedModelPart embedded
                    ? embedded.getEmbeddableTypeDescriptor().findSubPart(segments[i], null)
                    : null;
        }
        if (part instanceof ToOneAttributeMapping toOne) {
            part = toOne.getForeignKeyDescriptor().getKeyPart();
        }
        if (part == null) {
            throw unsupported(unit, type, "the column of its key '" + key.path() + "' cannot be found");
        }
        List<SelectableMapping> columns = new ArrayList<>();
        part.forEachSelectable((index, selectable) -> columns.add(selectable));
        if (columns.size() != 1) {
            throw unsupported(unit, type, "its key '" + key.path() + "' maps to " + columns.size() + " columns");
        }
        return columns.get(0);
    }

    private static UnsupportedOperationException unsupported(UnitRoutingImpl unit, Class<?> type, String why) {
        return new UnsupportedOperationException("Cannot move units of " + unit.root().getSimpleName() + ": member "
                + type.getSimpleName() + " cannot be copied because " + why + ". Nothing was moved");
    }
}
