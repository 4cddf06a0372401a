package org.atomicshards.processor.internal;

import java.util.HashSet;
import java.util.Set;

import javax.lang.model.element.Element;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;

/**
 * The top-level types compiled from source in this compilation (every round), so diagnostics on other
 * elements (classes from jars or earlier compilations, which have no file or line) can be moved.
 */
final class SourceTypes {

    private final Set<String> names = new HashSet<>();

    void add(TypeElement topLevelType) {
        names.add(topLevelType.getQualifiedName().toString());
    }

    /** True if {@code element} is declared in a source file of this compilation. */
    boolean contains(Element element) {
        TypeElement outermost = null;
        for (Element current = element; current != null && !(current instanceof PackageElement);
             current = current.getEnclosingElement()) {
            if (current instanceof TypeElement type) {
                outermost = type;
            }
        }
        return outermost != null && names.contains(outermost.getQualifiedName().toString());
    }
}
