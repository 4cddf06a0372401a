package org.atomicshards.processor.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;

import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.AttributeKind;
import org.atomicshards.processor.internal.PersistentMembers.Access;
import org.atomicshards.processor.internal.PersistentMembers.Member;

/**
 * Describes one persistent attribute (and, for embedded values, its components) from its mirrors.
 */
final class AttributeDescriber {

    /** Told what describing found, so the caller can follow references and check placements. */
    interface Listener {

        /** {@code member} refers to the entity class {@code entity} (a possibly precompiled class). */
        void referenced(TypeElement entity, Element member);

        /** {@code element} was mapped as a persistent attribute. */
        void mapped(Element element);

        /** The persistent members of {@code type} were read under {@code access}. */
        void scanned(TypeElement type, Access access);
    }

    private final Elements elements;
    private final Types types;
    private final Listener listener;

    AttributeDescriber(Elements elements, Types types, Listener listener) {
        this.elements = elements;
        this.types = types;
        this.listener = listener;
    }

    /** The description of {@code member}; empty when its type is not resolved (javac reports that itself). */
    Optional<AttributeDescription> describe(Member member, Access ownerAccess) {
        return describe(member, ownerAccess, new HashSet<>());
    }

    /** The persistent attributes of an embeddable, read under its explicit access or its owner's (fields for a record). */
    List<AttributeDescription> components(TypeElement embeddable, Access ownerAccess, Set<String> enclosing) {
        String name = binaryName(embeddable);
        if (!enclosing.add(name)) {
            return List.of();
        }
        List<AttributeDescription> components = new ArrayList<>();
        for (TypeElement type : Hierarchy.embeddableChain(embeddable)) {
            // A record has no getters; Hibernate maps its components, whose annotations sit on its fields.
            Access access = type.getKind() == ElementKind.RECORD ? Access.FIELD
                    : PersistentMembers.explicitAccess(type).orElse(ownerAccess);
            listener.scanned(type, access);
            for (Member member : PersistentMembers.declaredBy(type, access)) {
                describe(member, access, enclosing).ifPresent(components::add);
            }
        }
        enclosing.remove(name);
        return components;
    }

    private Optional<AttributeDescription> describe(Member member, Access access, Set<String> enclosing) {
        Element element = member.element();
        if (isUnresolved(member.type())) {
            return Optional.empty();
        }
        listener.mapped(element);
        AttributeKind kind = kind(element, member.type());
        AttributeDescription.Builder builder = AttributeDescription.builder(member.name(), kind)
                .source(element)
                .shardKey(Mirrors.has(element, Names.SHARD_KEY))
                .shardIndex(Mirrors.has(element, Names.SHARD_INDEX), Mirrors.find(element, Names.SHARD_INDEX)
                        .flatMap(index -> Mirrors.bool(index, "unique")).orElse(false))
                .id(Mirrors.has(element, Names.ID) || Mirrors.has(element, Names.EMBEDDED_ID));
        switch (kind) {
            case MANY_TO_ONE, ONE_TO_ONE -> describeToOne(builder, member, kind);
            case ONE_TO_MANY, MANY_TO_MANY -> describeToMany(builder, member, kind);
            case ELEMENT_COLLECTION -> describeElementCollection(builder, member, access, enclosing);
            case EMBEDDED -> describeEmbedded(builder, member, access, enclosing);
            case BASIC -> describeBasic(builder, member);
        }
        return Optional.of(builder.build());
    }

    private AttributeKind kind(Element element, TypeMirror type) {
        if (Mirrors.has(element, Names.MANY_TO_ONE)) {
            return AttributeKind.MANY_TO_ONE;
        }
        if (Mirrors.has(element, Names.ONE_TO_ONE)) {
            return AttributeKind.ONE_TO_ONE;
        }
        if (Mirrors.has(element, Names.ONE_TO_MANY)) {
            return AttributeKind.ONE_TO_MANY;
        }
        if (Mirrors.has(element, Names.MANY_TO_MANY)) {
            return AttributeKind.MANY_TO_MANY;
        }
        if (Mirrors.has(element, Names.ELEMENT_COLLECTION)) {
            return AttributeKind.ELEMENT_COLLECTION;
        }
        boolean embeddableType = Mirrors.typeElement(type).filter(Hierarchy::isEmbeddable).isPresent();
        if (Mirrors.has(element, Names.EMBEDDED) || Mirrors.has(element, Names.EMBEDDED_ID) || embeddableType) {
            return AttributeKind.EMBEDDED;
        }
        return AttributeKind.BASIC;
    }

    private void describeToOne(AttributeDescription.Builder builder, Member member, AttributeKind kind) {
        AnnotationMirror mapping = Mirrors.find(member.element(), kind == AttributeKind.MANY_TO_ONE ? Names.MANY_TO_ONE : Names.ONE_TO_ONE)
                .orElseThrow();
        TypeMirror target = Mirrors.type(mapping, "targetEntity").orElse(member.type());
        builder.targetEntity(typeName(target));
        Mirrors.string(mapping, "mappedBy").ifPresent(builder::mappedBy);
        Optional<AnnotationMirror> joinColumn = Mirrors.find(member.element(), Names.JOIN_COLUMN);
        joinColumn.flatMap(column -> Mirrors.bool(column, "updatable")).ifPresent(builder::updatable);
        joinColumn.flatMap(column -> Mirrors.bool(column, "insertable")).ifPresent(builder::insertable);
        Optional<AnnotationMirror> joinColumns = Mirrors.find(member.element(), Names.JOIN_COLUMNS);
        boolean multiColumn = joinColumns.isPresent();
        joinColumns.map(mirror -> Mirrors.annotations(mirror, "value")).filter(columns -> !columns.isEmpty())
                .ifPresent(columns -> builder.updatable(columns.stream()
                        .anyMatch(column -> Mirrors.bool(column, "updatable").orElse(true))));
        Optional<TypeElement> targetType = Mirrors.typeElement(target);
        if (!multiColumn && Mirrors.string(mapping, "mappedBy").isEmpty()) {
            Optional<String> explicit = joinColumn.flatMap(column -> Mirrors.string(column, "name"));
            builder.column(explicit.orElseGet(() -> targetType.flatMap(this::idColumn)
                    .map(idColumn -> member.name() + "_" + idColumn).orElse(null)));
        }
        targetType.filter(Hierarchy::isEntity).ifPresent(entity -> listener.referenced(entity, member.element()));
    }

    private void describeToMany(AttributeDescription.Builder builder, Member member, AttributeKind kind) {
        AnnotationMirror mapping = Mirrors.find(member.element(), kind == AttributeKind.ONE_TO_MANY ? Names.ONE_TO_MANY : Names.MANY_TO_MANY)
                .orElseThrow();
        TypeMirror target = Mirrors.type(mapping, "targetEntity").orElseGet(() -> elementType(member.type()));
        builder.targetEntity(typeName(target));
        Mirrors.string(mapping, "mappedBy").ifPresent(builder::mappedBy);
        Mirrors.typeElement(target).filter(Hierarchy::isEntity).ifPresent(entity -> listener.referenced(entity, member.element()));
    }

    private void describeElementCollection(AttributeDescription.Builder builder, Member member, Access access,
                                           Set<String> enclosing) {
        TypeMirror elementType = Mirrors.find(member.element(), Names.ELEMENT_COLLECTION)
                .flatMap(mapping -> Mirrors.type(mapping, "targetClass")).orElseGet(() -> elementType(member.type()));
        builder.javaType(typeName(elementType));
        Mirrors.typeElement(elementType).filter(Hierarchy::isEmbeddable)
                .ifPresent(embeddable -> builder.components(components(embeddable, access, enclosing)));
    }

    private void describeEmbedded(AttributeDescription.Builder builder, Member member, Access access, Set<String> enclosing) {
        builder.javaType(typeName(member.type()));
        Mirrors.typeElement(member.type()).ifPresent(embeddable -> {
            List<AttributeDescription> components = components(embeddable, access, enclosing);
            builder.components(components);
            Map<String, Boolean> overridden = overriddenUpdatable(member.element());
            builder.updatable(components.isEmpty() || components.stream()
                    .anyMatch(component -> overridden.getOrDefault(component.name(), component.isUpdatable())));
        });
    }

    private void describeBasic(AttributeDescription.Builder builder, Member member) {
        builder.javaType(typeName(member.type()));
        Optional<AnnotationMirror> column = Mirrors.find(member.element(), Names.COLUMN);
        builder.column(column.flatMap(mirror -> Mirrors.string(mirror, "name")).orElse(member.name()));
        column.flatMap(mirror -> Mirrors.bool(mirror, "updatable")).ifPresent(builder::updatable);
        column.flatMap(mirror -> Mirrors.bool(mirror, "insertable")).ifPresent(builder::insertable);
    }

    /** {@code updatable} of the columns that {@code @AttributeOverride}s on an embedded attribute set explicitly. */
    private static Map<String, Boolean> overriddenUpdatable(Element element) {
        List<AnnotationMirror> overrides = new ArrayList<>();
        Mirrors.find(element, Names.ATTRIBUTE_OVERRIDE).ifPresent(overrides::add);
        Mirrors.find(element, Names.ATTRIBUTE_OVERRIDES).ifPresent(mirror -> overrides.addAll(Mirrors.annotations(mirror, "value")));
        Map<String, Boolean> updatable = new HashMap<>();
        for (AnnotationMirror override : overrides) {
            Optional<String> name = Mirrors.string(override, "name");
            Optional<Boolean> columnUpdatable = Mirrors.annotation(override, "column").flatMap(column -> Mirrors.bool(column, "updatable"));
            if (name.isPresent() && columnUpdatable.isPresent()) {
                updatable.put(name.get(), columnUpdatable.get());
            }
        }
        return updatable;
    }

    /** The column of an entity's single {@code @Id} attribute: its {@code @Column} name or the attribute name. */
    private Optional<String> idColumn(TypeElement entity) {
        Access access = PersistentMembers.defaultAccess(entity);
        for (TypeElement type : Hierarchy.persistentChain(entity)) {
            for (Member member : PersistentMembers.declaredBy(type, PersistentMembers.explicitAccess(type).orElse(access))) {
                if (Mirrors.has(member.element(), Names.ID)) {
                    return Optional.of(Mirrors.find(member.element(), Names.COLUMN)
                            .flatMap(column -> Mirrors.string(column, "name")).orElse(member.name()));
                }
            }
        }
        return Optional.empty();
    }

    /** The element type of a collection ({@code List<Order>} gives {@code Order}; a {@code Map} its value type). */
    private TypeMirror elementType(TypeMirror collection) {
        List<? extends TypeMirror> arguments = Mirrors.typeArguments(collection);
        if (arguments.isEmpty()) {
            return collection.getKind() == TypeKind.ARRAY ? ((ArrayType) collection).getComponentType() : collection;
        }
        return arguments.get(arguments.size() - 1);
    }

    /** {@code long}, {@code java.lang.Long}, {@code com.acme.Outer$Inner}, {@code byte[]}. */
    String typeName(TypeMirror type) {
        switch (type.getKind()) {
            case DECLARED:
                return binaryName((TypeElement) types.asElement(type));
            case ARRAY:
                return typeName(((ArrayType) type).getComponentType()) + "[]";
            case TYPEVAR:
            case WILDCARD:
                return typeName(types.erasure(type));
            default:
                return type.toString();
        }
    }

    String binaryName(TypeElement type) {
        return elements.getBinaryName(type).toString();
    }

    private static boolean isUnresolved(TypeMirror type) {
        if (type.getKind() == TypeKind.ERROR) {
            return true;
        }
        return Mirrors.typeArguments(type).stream().anyMatch(argument -> argument.getKind() == TypeKind.ERROR);
    }
}
