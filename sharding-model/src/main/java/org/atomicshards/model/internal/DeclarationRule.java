package org.atomicshards.model.internal;

import java.util.ArrayList;
import java.util.List;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.AttributeKind;
import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.Message;
import org.atomicshards.model.Site;
import org.atomicshards.model.ValidationReport;
import org.atomicshards.model.Violation;

/**
 * Checks that the annotations are placed where they mean something: not both roles on one class, roles on the
 * top of a hierarchy, no shard key on reference data, one shard key per entity, keys stored in the entity's own
 * table.
 */
final class DeclarationRule {

    private DeclarationRule() {
    }

    static ValidationReport validate(ModelIndex index) {
        List<Violation> violations = new ArrayList<>();
        for (EntityDescription entity : index.model().entities()) {
            String name = entity.className();
            String top = index.topOf(name);
            if (entity.isAtomicUnit() && entity.isReferenceData()) {
                violations.add(Violation.of(Message.ROOT_AND_REFERENCE_DATA, name, entity.source(), Site.ATOMIC_UNIT, name));
            }
            if (!top.equals(name)) {
                if (entity.isAtomicUnit() && !index.isRoot(top)) {
                    violations.add(Violation.of(Message.UNIT_ANNOTATION_ON_SUBCLASS, name, entity.source(),
                            Site.ATOMIC_UNIT, "AtomicUnit", name, top, "AtomicUnit", top));
                }
                if (entity.isReferenceData() && !index.isReferenceData(top)) {
                    violations.add(Violation.of(Message.UNIT_ANNOTATION_ON_SUBCLASS, name, entity.source(),
                            Site.REFERENCE_DATA, "ReferenceData", name, top, "ReferenceData", top));
                }
            }
            List<KeyAttribute> declaredKeys = declaredKeys(index, entity);
            for (KeyAttribute key : declaredKeys) {
                AttributeDescription attribute = key.attribute();
                String label = name + "." + key.path();
                if (index.isReferenceData(top)) {
                    violations.add(Violation.of(Message.SHARD_KEY_ON_REFERENCE_DATA, name, attribute.source(),
                            Site.SHARD_KEY, label, name));
                } else if (!key.storesOwnColumn()) {
                    String what = attribute.kind().isCollection() ? "collection (" + attribute.kind() + ")"
                            : "inverse (mappedBy) " + attribute.kind() + " association";
                    violations.add(Violation.of(Message.KEY_WITHOUT_OWN_COLUMN, name, attribute.source(),
                            Site.SHARD_KEY, label, what));
                }
            }
            for (AttributeDescription collection : index.declaredAttributes(entity)) {
                if (collection.kind() == AttributeKind.ELEMENT_COLLECTION) {
                    for (String path : keysInside(collection.components(), collection.name() + ".")) {
                        violations.add(Violation.of(Message.KEY_WITHOUT_OWN_COLUMN, name, collection.source(), Site.ELEMENT,
                                name + "." + path, "value inside an element collection"));
                    }
                }
            }
            List<KeyAttribute> allKeys = ModelIndex.keys(entity);
            if (allKeys.size() > 1 && !declaredKeys.isEmpty() && !index.isReferenceData(top)) {
                String names = String.join(", ", allKeys.stream().map(KeyAttribute::path).toList());
                for (KeyAttribute key : declaredKeys) {
                    violations.add(Violation.of(Message.MULTIPLE_SHARD_KEYS, name, key.attribute().source(),
                            Site.SHARD_KEY, name, allKeys.size(), names));
                }
            }
        }
        return ValidationReport.of(violations);
    }

    /** Paths of {@code @ShardKey} attributes among {@code components}, at any depth. */
    private static List<String> keysInside(List<AttributeDescription> components, String prefix) {
        List<String> paths = new ArrayList<>();
        for (AttributeDescription component : components) {
            if (component.isShardKey()) {
                paths.add(prefix + component.name());
            }
            paths.addAll(keysInside(component.components(), prefix + component.name() + "."));
        }
        return paths;
    }

    /** Keys on attributes this entity declares itself (inherited ones are reported on the supertype). */
    private static List<KeyAttribute> declaredKeys(ModelIndex index, EntityDescription entity) {
        List<AttributeDescription> declared = index.declaredAttributes(entity);
        return ModelIndex.keys(entity).stream()
                .filter(key -> declared.stream().anyMatch(attribute -> key.path().equals(attribute.name())
                        || key.path().startsWith(attribute.name() + ".")))
                .toList();
    }
}
