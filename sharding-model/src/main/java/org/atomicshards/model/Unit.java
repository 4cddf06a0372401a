package org.atomicshards.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One resolved atomic unit: its root, the type of its key, and every entity stored with it. Immutable.
 *
 * @param root    the root entity's binary class name (the class annotated {@code @AtomicUnit})
 * @param keyType the key's type: a boxed Java type ({@code java.lang.Long}) or an embeddable class name
 * @param members every entity of the unit, the root (and its subclasses) first; each entity at most once
 */
public record Unit(String root, String keyType, List<UnitMember> members) {

    public Unit {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(keyType, "keyType");
        members = List.copyOf(members);
        Map<String, UnitMember> seen = new LinkedHashMap<>();
        for (UnitMember member : members) {
            if (seen.put(member.entity(), member) != null) {
                throw new IllegalArgumentException("Unit " + root + " lists " + member.entity() + " twice");
            }
        }
        if (!seen.containsKey(root)) {
            throw new IllegalArgumentException("Unit " + root + " does not list its root as a member");
        }
    }

    public Optional<UnitMember> member(String entity) {
        return members.stream().filter(member -> member.entity().equals(entity)).findFirst();
    }

    /** The root's own entry: where the root holds the key. */
    public UnitMember rootMember() {
        return member(root).orElseThrow();
    }
}
