package org.atomicshards.model.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.AttributeKind;

/** Type names as the rules compare them: primitives boxed, the supported shard-key types. */
final class JavaTypes {

    private static final Map<String, String> BOXES = Map.of(
            "byte", "java.lang.Byte", "short", "java.lang.Short", "int", "java.lang.Integer",
            "long", "java.lang.Long", "char", "java.lang.Character", "boolean", "java.lang.Boolean",
            "float", "java.lang.Float", "double", "java.lang.Double");

    private static final Set<String> KEY_TYPES = Set.of(
            "java.lang.Byte", "java.lang.Short", "java.lang.Integer", "java.lang.Long", "java.math.BigInteger",
            "java.lang.String", "java.util.UUID");

    private JavaTypes() {
    }

    /** {@code long} becomes {@code java.lang.Long}; other names are returned unchanged. */
    static String boxed(String typeName) {
        return BOXES.getOrDefault(typeName, typeName);
    }

    /**
     * True for a basic attribute of an integral, String or UUID type, and for an embedded value whose components
     * all are (recursively).
     */
    static boolean isSupportedKey(AttributeDescription attribute) {
        if (attribute.kind() == AttributeKind.BASIC) {
            return KEY_TYPES.contains(boxed(attribute.javaType()));
        }
        if (attribute.kind() == AttributeKind.EMBEDDED) {
            List<AttributeDescription> components = attribute.components();
            return !components.isEmpty() && components.stream().allMatch(JavaTypes::isSupportedKey);
        }
        return false;
    }

    /** {@code com.acme.Outer$Customer} becomes {@code Customer}. */
    static String simpleName(String className) {
        String name = className.substring(className.lastIndexOf('.') + 1);
        return name.substring(name.lastIndexOf('$') + 1);
    }

    /** {@code java.lang.Long} becomes {@code Long}, {@code java.util.UUID} {@code UUID}; other names are returned unchanged. */
    static String readable(String typeName) {
        return typeName.startsWith("java.") ? simpleName(typeName) : typeName;
    }
}
