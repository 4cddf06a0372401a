package org.atomicshards.processor.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;

import org.atomicshards.model.Severity;
import org.atomicshards.model.Site;
import org.atomicshards.model.Violation;

/**
 * Prints violations through the {@link Messager} on the exact element, annotation and annotation value.
 *
 * <p>An element that is not compiled from source (a class from a jar) has no file or line; its violation is
 * printed on the source element that pulled that class into the model, prefixed with the class's name
 * ({@code [com.acme.Order] ...}), as Dagger does. Identical diagnostics are printed once.
 */
final class DiagnosticReporter {

    private static final List<String> MAPPING_ANNOTATIONS = List.of(Names.MANY_TO_ONE, Names.ONE_TO_ONE,
            Names.ONE_TO_MANY, Names.MANY_TO_MANY, Names.ELEMENT_COLLECTION, Names.EMBEDDED, Names.EMBEDDED_ID);

    private record Printed(Diagnostic.Kind kind, String text, Element element, AnnotationMirror mirror, AnnotationValue value) {
    }

    private final Messager messager;
    private final Elements elements;
    private final SourceTypes sources;
    private final Set<Printed> printed = new HashSet<>();
    private int errors;

    DiagnosticReporter(Messager messager, Elements elements, SourceTypes sources) {
        this.messager = messager;
        this.elements = elements;
        this.sources = sources;
    }

    /**
     * Prints {@code violation}.
     *
     * @param collector where precompiled entities were pulled in from; may be null before the model is collected
     */
    void report(Violation violation, ModelCollector collector) {
        Diagnostic.Kind kind = violation.severity() == Severity.ERROR ? Diagnostic.Kind.ERROR : Diagnostic.Kind.WARNING;
        Element element = violation.source() instanceof Element source ? source : null;
        if (element != null && sources.contains(element)) {
            print(kind, violation.text(), element, violation.site());
            return;
        }
        String prefixed = "[" + describe(element, violation.entity()) + "] " + violation.text();
        Optional<Element> entity = collector == null ? Optional.empty()
                : collector.entity(violation.entity()).map(Element.class::cast).filter(sources::contains);
        Optional<Element> target = entity.isPresent() ? entity
                : Optional.ofNullable(collector).flatMap(known -> known.pulledInBy(violation.entity()));
        if (target.isPresent()) {
            print(kind, prefixed, target.get(), Site.ELEMENT);
        } else {
            print(kind, prefixed, null, Site.ELEMENT);
        }
    }

    /** Prints a message on {@code element} at {@code site}. */
    void print(Diagnostic.Kind kind, String text, Element element, Site site) {
        AnnotationMirror mirror = element == null ? null : mirror(element, site).orElse(null);
        AnnotationValue value = mirror == null ? null : value(mirror, site).orElse(null);
        if (!printed.add(new Printed(kind, text, element, mirror, value))) {
            return;
        }
        if (kind == Diagnostic.Kind.ERROR) {
            errors++;
        }
        if (element == null) {
            messager.printMessage(kind, text);
        } else if (mirror == null) {
            messager.printMessage(kind, text, element);
        } else if (value == null) {
            messager.printMessage(kind, text, element, mirror);
        } else {
            messager.printMessage(kind, text, element, mirror, value);
        }
    }

    /** How many errors were printed. */
    int errorCount() {
        return errors;
    }

    private String describe(Element element, String entity) {
        if (element == null || element instanceof TypeElement) {
            return element == null ? entity : elements.getBinaryName((TypeElement) element).toString();
        }
        Element enclosing = element.getEnclosingElement();
        String owner = enclosing instanceof TypeElement type ? elements.getBinaryName(type).toString() : entity;
        return owner + "." + element.getSimpleName();
    }

    private static Optional<AnnotationMirror> mirror(Element element, Site site) {
        return switch (site) {
            case ELEMENT -> Optional.empty();
            case ATOMIC_UNIT -> Mirrors.find(element, Names.ATOMIC_UNIT);
            case REFERENCE_DATA -> Mirrors.find(element, Names.REFERENCE_DATA);
            case SHARD_KEY -> Mirrors.find(element, Names.SHARD_KEY);
            case SHARD_INDEX -> Mirrors.find(element, Names.SHARD_INDEX);
            case ASSOCIATION -> MAPPING_ANNOTATIONS.stream().map(name -> Mirrors.find(element, name))
                    .flatMap(Optional::stream).findFirst();
            case ID_GENERATION -> first(Mirrors.find(element, Names.UUID_GENERATOR),
                    Mirrors.findMetaAnnotated(element, Names.ID_GENERATOR_TYPE),
                    Mirrors.find(element, Names.GENERATED_VALUE));
            case UPDATABLE -> first(Mirrors.find(element, Names.COLUMN), Mirrors.find(element, Names.JOIN_COLUMN),
                    Mirrors.find(element, Names.SHARD_KEY));
        };
    }

    private static Optional<AnnotationValue> value(AnnotationMirror mirror, Site site) {
        return switch (site) {
            case ID_GENERATION -> Mirrors.explicitValue(mirror, "strategy");
            case UPDATABLE -> Mirrors.explicitValue(mirror, "updatable");
            default -> Optional.empty();
        };
    }

    @SafeVarargs
    private static Optional<AnnotationMirror> first(Optional<AnnotationMirror>... candidates) {
        for (Optional<AnnotationMirror> candidate : candidates) {
            if (candidate.isPresent()) {
                return candidate;
            }
        }
        return Optional.empty();
    }
}
