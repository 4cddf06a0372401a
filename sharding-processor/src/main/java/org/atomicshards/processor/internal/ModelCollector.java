package org.atomicshards.processor.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

import org.atomicshards.model.EntityDescription;
import org.atomicshards.processor.internal.PersistentMembers.Access;

/**
 * Describes the entities compiled from source and every entity they reach (through associations or as
 * superclasses), including classes from jars and earlier compilations. For each of those precompiled classes it
 * remembers the source element that first pulled it in, where their diagnostics are reported.
 */
final class ModelCollector implements AttributeDescriber.Listener {

    private final SourceTypes sources;
    private final EntityDescriber describer;
    private final AttributeDescriber attributes;
    private final Map<String, TypeElement> known = new LinkedHashMap<>();
    private final Deque<TypeElement> queue = new ArrayDeque<>();
    private final Map<String, Element> pulledInBy = new HashMap<>();
    private final Set<Element> mapped = new HashSet<>();
    private final Map<TypeElement, Access> scanned = new HashMap<>();
    private String current;

    ModelCollector(Elements elements, Types types, SourceTypes sources) {
        this.sources = sources;
        this.attributes = new AttributeDescriber(elements, types, this);
        this.describer = new EntityDescriber(attributes, this);
    }

    /**
     * Describes {@code sourceEntities} and everything they reach.
     *
     * @throws ElementFailure on the entity whose description failed unexpectedly
     */
    List<EntityDescription> collect(Collection<TypeElement> sourceEntities) {
        sourceEntities.forEach(this::enqueue);
        List<EntityDescription> descriptions = new ArrayList<>();
        while (!queue.isEmpty()) {
            TypeElement entity = queue.removeFirst();
            current = attributes.binaryName(entity);
            try {
                descriptions.add(describer.describe(entity));
            } catch (RuntimeException e) {
                throw new ElementFailure(entity, e);
            }
        }
        return descriptions;
    }

    /** The source element that pulled the precompiled entity {@code className} into the model. */
    Optional<Element> pulledInBy(String className) {
        return Optional.ofNullable(pulledInBy.get(className));
    }

    /** The source-compiled or precompiled type element of a described entity. */
    Optional<TypeElement> entity(String className) {
        return Optional.ofNullable(known.get(className));
    }

    /** True if {@code element} was mapped as a persistent attribute of a described entity or embeddable. */
    boolean isMapped(Element element) {
        return mapped.contains(element);
    }

    /** The access under which {@code type}'s members were read; empty if no described entity uses the type. */
    Optional<Access> accessOf(TypeElement type) {
        return Optional.ofNullable(scanned.get(type));
    }

    @Override
    public void referenced(TypeElement entity, Element member) {
        String name = attributes.binaryName(entity);
        if (known.containsKey(name)) {
            return;
        }
        Element via = sources.contains(member) ? member : pulledInBy.get(current);
        if (via != null) {
            pulledInBy.put(name, via);
        }
        enqueue(entity);
    }

    @Override
    public void mapped(Element element) {
        mapped.add(element);
    }

    @Override
    public void scanned(TypeElement type, Access access) {
        scanned.putIfAbsent(type, access);
    }

    private void enqueue(TypeElement entity) {
        if (known.putIfAbsent(attributes.binaryName(entity), entity) == null) {
            queue.addLast(entity);
        }
    }
}
