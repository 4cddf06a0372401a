package org.atomicshards.model.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.AttributeKind;
import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.Message;
import org.atomicshards.model.Site;
import org.atomicshards.model.ValidationReport;
import org.atomicshards.model.Violation;

/**
 * Checks {@code @ShardIndex} placements: on a basic attribute of an integral, String or UUID type, of an entity of an
 * atomic unit keyed by a single value, and not on the attribute that is the entity's shard key. Attributes are
 * checked on the entity that declares them (an inherited one is reported once, on its supertype).
 */
final class ShardIndexRule {

    private static final Set<String> INDEX_TYPES = Set.of(
            "java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.math.BigInteger",
            "java.lang.String", "java.util.UUID");

    private ShardIndexRule() {
    }

    static ValidationReport validate(ModelIndex index, UnitAssignment assignment, Map<String, RootKey> rootKeys) {
        List<Violation> violations = new ArrayList<>();
        for (EntityDescription entity : index.model().entities()) {
            String name = entity.className();
            String top = index.topOf(name);
            List<KeyAttribute> keys = ModelIndex.keys(entity);
            for (AttributeDescription attribute : index.declaredAttributes(entity)) {
                check(index, assignment, rootKeys, name, top, keys, attribute, name + "." + attribute.name(), violations);
                nestedIndexes(attribute.components(), name + "." + attribute.name() + ".", name, violations);
            }
        }
        return ValidationReport.of(violations);
    }

    private static void check(ModelIndex index, UnitAssignment assignment, Map<String, RootKey> rootKeys,
                              String entity, String top, List<KeyAttribute> keys, AttributeDescription attribute,
                              String label, List<Violation> violations) {
        if (!attribute.isIndexed()) {
            return;
        }
        if (attribute.kind() != AttributeKind.BASIC) {
            violations.add(Violation.of(Message.INDEX_NOT_ON_BASIC_ATTRIBUTE, entity, attribute.source(),
                    Site.SHARD_INDEX, label, describe(attribute.kind())));
            return;
        }
        if (!INDEX_TYPES.contains(JavaTypes.boxed(attribute.javaType()))) {
            violations.add(Violation.of(Message.UNSUPPORTED_INDEX_TYPE, entity, attribute.source(), Site.SHARD_INDEX,
                    label, attribute.javaType()));
            return;
        }
        if (index.isReferenceData(top)) {
            violations.add(Violation.of(Message.INDEX_ON_REFERENCE_DATA, entity, attribute.source(), Site.SHARD_INDEX,
                    label, entity));
            return;
        }
        if (keys.stream().anyMatch(key -> key.attribute() == attribute)) {
            violations.add(Violation.of(Message.INDEX_ON_SHARD_KEY, entity, attribute.source(), Site.SHARD_INDEX,
                    label, entity));
            return;
        }
        assignment.ownerOf(top).map(rootKeys::get).filter(root -> root.key().attribute().kind() == AttributeKind.EMBEDDED)
                .ifPresent(root -> violations.add(Violation.of(Message.INDEX_ON_COMPOSITE_KEY_UNIT, entity,
                        attribute.source(), Site.SHARD_INDEX, label, root.root(), root.keyType())));
    }

    /** {@code @ShardIndex} inside an embedded value or an element collection: not a column of the entity's own row. */
    private static void nestedIndexes(List<AttributeDescription> components, String prefix, String entity,
                                      List<Violation> violations) {
        for (AttributeDescription component : components) {
            if (component.isIndexed()) {
                violations.add(Violation.of(Message.INDEX_NOT_ON_BASIC_ATTRIBUTE, entity, component.source(),
                        Site.SHARD_INDEX, prefix + component.name(), "a value inside an embedded value or collection"));
            }
            nestedIndexes(component.components(), prefix + component.name() + ".", entity, violations);
        }
    }

    private static String describe(AttributeKind kind) {
        return switch (kind) {
            case EMBEDDED -> "an embedded value";
            case MANY_TO_ONE, ONE_TO_ONE -> "a to-one association (" + kind + ")";
            default -> "a collection (" + kind + ")";
        };
    }
}
