package org.atomicshards.processor.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/** Reads annotations through mirrors, by qualified name, never through {@code getAnnotation(Class)}. */
final class Mirrors {

    private Mirrors() {
    }

    /** The annotation of type {@code qualifiedName} directly present on {@code element}. */
    static Optional<AnnotationMirror> find(Element element, String qualifiedName) {
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            TypeElement type = (TypeElement) mirror.getAnnotationType().asElement();
            if (type.getQualifiedName().contentEquals(qualifiedName)) {
                return Optional.of(mirror);
            }
        }
        return Optional.empty();
    }

    static boolean has(Element element, String qualifiedName) {
        return find(element, qualifiedName).isPresent();
    }

    /** The first annotation on {@code element} whose type carries the meta-annotation {@code metaAnnotation}. */
    static Optional<AnnotationMirror> findMetaAnnotated(Element element, String metaAnnotation) {
        for (AnnotationMirror mirror : element.getAnnotationMirrors()) {
            if (has(mirror.getAnnotationType().asElement(), metaAnnotation)) {
                return Optional.of(mirror);
            }
        }
        return Optional.empty();
    }

    /** The value written explicitly in the annotation for {@code name} (defaults are not included). */
    static Optional<AnnotationValue> explicitValue(AnnotationMirror mirror, String name) {
        for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> entry : mirror.getElementValues().entrySet()) {
            if (entry.getKey().getSimpleName().contentEquals(name)) {
                return Optional.of(entry.getValue());
            }
        }
        return Optional.empty();
    }

    /** An explicit {@code String} member, empty when absent or blank. */
    static Optional<String> string(AnnotationMirror mirror, String name) {
        return explicitValue(mirror, name).map(AnnotationValue::getValue)
                .filter(String.class::isInstance).map(String.class::cast).filter(text -> !text.isBlank());
    }

    /** An explicit {@code boolean} member. */
    static Optional<Boolean> bool(AnnotationMirror mirror, String name) {
        return explicitValue(mirror, name).map(AnnotationValue::getValue)
                .filter(Boolean.class::isInstance).map(Boolean.class::cast);
    }

    /** The simple name of an explicit enum constant member ({@code GenerationType.IDENTITY} gives {@code IDENTITY}). */
    static Optional<String> enumConstant(AnnotationMirror mirror, String name) {
        return explicitValue(mirror, name).map(AnnotationValue::getValue)
                .filter(VariableElement.class::isInstance).map(value -> ((VariableElement) value).getSimpleName().toString());
    }

    /** An explicit {@code Class} member, unless it is {@code void.class} (the JPA "not set" default). */
    static Optional<TypeMirror> type(AnnotationMirror mirror, String name) {
        return explicitValue(mirror, name).map(AnnotationValue::getValue)
                .filter(TypeMirror.class::isInstance).map(TypeMirror.class::cast)
                .filter(type -> type.getKind() == TypeKind.DECLARED);
    }

    /** An explicit nested-annotation member. */
    static Optional<AnnotationMirror> annotation(AnnotationMirror mirror, String name) {
        return explicitValue(mirror, name).map(AnnotationValue::getValue)
                .filter(AnnotationMirror.class::isInstance).map(AnnotationMirror.class::cast);
    }

    /** An explicit array-of-annotations member (a single annotation written without braces counts as one). */
    static List<AnnotationMirror> annotations(AnnotationMirror mirror, String name) {
        Optional<Object> value = explicitValue(mirror, name).map(AnnotationValue::getValue);
        if (value.isEmpty()) {
            return List.of();
        }
        if (value.get() instanceof AnnotationMirror single) {
            return List.of(single);
        }
        List<AnnotationMirror> mirrors = new ArrayList<>();
        if (value.get() instanceof List<?> values) {
            for (Object item : values) {
                if (item instanceof AnnotationValue annotationValue && annotationValue.getValue() instanceof AnnotationMirror nested) {
                    mirrors.add(nested);
                }
            }
        }
        return mirrors;
    }

    /** The type element of a declared type, or empty for primitives, arrays, type variables and error types. */
    static Optional<TypeElement> typeElement(TypeMirror type) {
        if (type.getKind() == TypeKind.DECLARED) {
            return Optional.of((TypeElement) ((DeclaredType) type).asElement());
        }
        return Optional.empty();
    }

    /** The type arguments of a declared type; empty otherwise. */
    static List<? extends TypeMirror> typeArguments(TypeMirror type) {
        return type.getKind() == TypeKind.DECLARED ? ((DeclaredType) type).getTypeArguments() : List.of();
    }
}
