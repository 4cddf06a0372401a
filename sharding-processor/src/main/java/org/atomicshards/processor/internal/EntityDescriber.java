package org.atomicshards.processor.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.IdGeneration;
import org.atomicshards.processor.internal.PersistentMembers.Access;
import org.atomicshards.processor.internal.PersistentMembers.Member;

/**
 * Describes an entity class as Hibernate will map it: attributes flattened over mapped superclasses and entity
 * superclasses, its id and how the id is generated, and the Atomic Shards annotations declared on it.
 */
final class EntityDescriber {

    private final AttributeDescriber attributes;
    private final AttributeDescriber.Listener listener;

    EntityDescriber(AttributeDescriber attributes, AttributeDescriber.Listener listener) {
        this.attributes = attributes;
        this.listener = listener;
    }

    EntityDescription describe(TypeElement entity) {
        Access hierarchyAccess = PersistentMembers.defaultAccess(entity);
        List<AttributeDescription> described = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<Element> idElements = new ArrayList<>();
        for (TypeElement type : Hierarchy.persistentChain(entity)) {
            Access access = PersistentMembers.explicitAccess(type).orElse(hierarchyAccess);
            listener.scanned(type, access);
            for (Member member : PersistentMembers.declaredBy(type, access)) {
                if (!names.add(member.name())) {
                    continue;
                }
                attributes.describe(member, access).ifPresent(attribute -> {
                    described.add(attribute);
                    if (attribute.isId()) {
                        idElements.add(member.element());
                    }
                });
            }
        }
        EntityDescription.Builder builder = EntityDescription.builder(attributes.binaryName(entity))
                .source(entity)
                .atomicUnit(Mirrors.has(entity, Names.ATOMIC_UNIT))
                .referenceData(Mirrors.has(entity, Names.REFERENCE_DATA))
                .attributes(described)
                .idGeneration(idElements.isEmpty() ? IdGeneration.ASSIGNED : generation(idElements.get(0), entity));
        Hierarchy.superEntity(entity).ifPresent(superEntity -> {
            builder.superEntity(attributes.binaryName(superEntity));
            listener.referenced(superEntity, entity);
        });
        idClass(entity).ifPresent(builder::idClass);
        return builder.build();
    }

    private Optional<String> idClass(TypeElement entity) {
        for (TypeElement type : Hierarchy.persistentChain(entity)) {
            Optional<String> idClass = Mirrors.find(type, Names.ID_CLASS).flatMap(mirror -> Mirrors.type(mirror, "value"))
                    .map(attributes::typeName);
            if (idClass.isPresent()) {
                return idClass;
            }
        }
        return Optional.empty();
    }

    /**
     * How Hibernate generates the id: a generator annotation ({@code @UuidGenerator} or any annotation meta-annotated
     * {@code @IdGeneratorType}) wins; then {@code @GeneratedValue}'s strategy, or for a named generator the kind of
     * generator declared next to it.
     */
    private static IdGeneration generation(Element id, TypeElement entity) {
        if (Mirrors.has(id, Names.UUID_GENERATOR)) {
            return IdGeneration.UUID;
        }
        if (Mirrors.findMetaAnnotated(id, Names.ID_GENERATOR_TYPE).isPresent()) {
            return IdGeneration.CUSTOM;
        }
        Optional<AnnotationMirror> generatedValue = Mirrors.find(id, Names.GENERATED_VALUE);
        if (generatedValue.isEmpty()) {
            return IdGeneration.ASSIGNED;
        }
        Optional<String> strategy = Mirrors.enumConstant(generatedValue.get(), "strategy");
        if (strategy.isPresent() && !strategy.get().equals("AUTO")) {
            return IdGeneration.valueOf(strategy.get());
        }
        if (Mirrors.string(generatedValue.get(), "generator").isPresent()) {
            if (declaresGenerator(id, entity, Names.GENERIC_GENERATOR)) {
                return IdGeneration.CUSTOM;
            }
            if (declaresGenerator(id, entity, Names.SEQUENCE_GENERATOR)) {
                return IdGeneration.SEQUENCE;
            }
            if (declaresGenerator(id, entity, Names.TABLE_GENERATOR)) {
                return IdGeneration.TABLE;
            }
        }
        return IdGeneration.AUTO;
    }

    private static boolean declaresGenerator(Element id, TypeElement entity, String generator) {
        return Mirrors.has(id, generator) || Hierarchy.persistentChain(entity).stream().anyMatch(type -> Mirrors.has(type, generator));
    }
}
