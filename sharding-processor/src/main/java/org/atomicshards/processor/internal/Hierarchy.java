package org.atomicshards.processor.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeMirror;

/** Walks class hierarchies the way Jakarta Persistence maps them. */
final class Hierarchy {

    private Hierarchy() {
    }

    /** The superclass of {@code type}, if it is a declared (resolved) class. */
    static Optional<TypeElement> superclass(TypeElement type) {
        TypeMirror superclass = type.getSuperclass();
        return Mirrors.typeElement(superclass);
    }

    static boolean isEntity(TypeElement type) {
        return Mirrors.has(type, Names.ENTITY);
    }

    static boolean isMappedSuperclass(TypeElement type) {
        return Mirrors.has(type, Names.MAPPED_SUPERCLASS);
    }

    static boolean isEmbeddable(TypeElement type) {
        return Mirrors.has(type, Names.EMBEDDABLE);
    }

    /**
     * {@code type} and its superclasses whose state is persistent for {@code type}: entities and mapped
     * superclasses (other classes in between contribute nothing). Topmost first.
     */
    static List<TypeElement> persistentChain(TypeElement type) {
        Deque<TypeElement> chain = new ArrayDeque<>();
        chain.push(type);
        Optional<TypeElement> current = superclass(type);
        while (current.isPresent()) {
            TypeElement superclass = current.get();
            if (isEntity(superclass) || isMappedSuperclass(superclass)) {
                chain.push(superclass);
            }
            current = superclass(superclass);
        }
        return List.copyOf(chain);
    }

    /** {@code type} and its superclasses that are embeddables or mapped superclasses. Topmost first. */
    static List<TypeElement> embeddableChain(TypeElement type) {
        Deque<TypeElement> chain = new ArrayDeque<>();
        chain.push(type);
        Optional<TypeElement> current = superclass(type);
        while (current.isPresent()) {
            TypeElement superclass = current.get();
            if (isEmbeddable(superclass) || isMappedSuperclass(superclass)) {
                chain.push(superclass);
            }
            current = superclass(superclass);
        }
        return List.copyOf(chain);
    }

    /** The nearest superclass annotated {@code @Entity}. */
    static Optional<TypeElement> superEntity(TypeElement type) {
        Optional<TypeElement> current = superclass(type);
        while (current.isPresent()) {
            if (isEntity(current.get())) {
                return current;
            }
            current = superclass(current.get());
        }
        return Optional.empty();
    }
}
