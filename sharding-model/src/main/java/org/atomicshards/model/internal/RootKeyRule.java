package org.atomicshards.model.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.AttributeKind;
import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.Message;
import org.atomicshards.model.Site;
import org.atomicshards.model.ValidationReport;
import org.atomicshards.model.Violation;

/**
 * Checks that every atomic-unit root has exactly one shard key of a supported type, and yields the valid keys.
 * (Several keys are reported by {@link DeclarationRule}.)
 */
final class RootKeyRule {

    /** The report and the roots whose key is valid, by root class name. */
    record Result(ValidationReport report, Map<String, RootKey> rootKeys) {
    }

    private RootKeyRule() {
    }

    static Result validate(ModelIndex index) {
        List<Violation> violations = new ArrayList<>();
        Map<String, RootKey> rootKeys = new LinkedHashMap<>();
        for (String top : index.tops()) {
            if (!index.isRoot(top)) {
                continue;
            }
            EntityDescription root = index.entity(top);
            List<KeyAttribute> keys = ModelIndex.keys(root);
            if (keys.isEmpty()) {
                violations.add(Violation.of(Message.ROOT_WITHOUT_SHARD_KEY, top, root.source(), Site.ATOMIC_UNIT, top));
            } else if (keys.size() == 1) {
                KeyAttribute key = keys.get(0);
                if (JavaTypes.isSupportedKey(key.attribute())) {
                    rootKeys.put(top, new RootKey(top, key));
                } else if (key.storesOwnColumn()) {
                    violations.add(Violation.of(Message.UNSUPPORTED_KEY_TYPE, top, key.attribute().source(),
                            Site.SHARD_KEY, top + "." + key.path(), describe(key.attribute())));
                }
            }
        }
        return new Result(ValidationReport.of(violations), rootKeys);
    }

    private static String describe(AttributeDescription attribute) {
        if (attribute.kind().isAssociation()) {
            return "an association (" + attribute.kind() + ") to " + attribute.targetEntity();
        }
        if (attribute.kind() == AttributeKind.EMBEDDED) {
            List<String> bad = attribute.components().stream().filter(component -> !JavaTypes.isSupportedKey(component))
                    .map(component -> component.name() + ": " + component.javaType()).toList();
            return attribute.javaType() + (bad.isEmpty() ? " (no components)" : " (unsupported components " + String.join(", ", bad) + ")");
        }
        return attribute.javaType();
    }
}
