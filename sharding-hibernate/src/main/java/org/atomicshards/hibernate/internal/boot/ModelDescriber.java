package org.atomicshards.hibernate.internal.boot;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Member;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import jakarta.persistence.Column;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinColumns;
import jakarta.persistence.ManyToMany;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OneToOne;
import jakarta.persistence.metamodel.Attribute;
import jakarta.persistence.metamodel.EmbeddableType;
import jakarta.persistence.metamodel.EntityType;
import jakarta.persistence.metamodel.IdentifiableType;
import jakarta.persistence.metamodel.ManagedType;
import jakarta.persistence.metamodel.PluralAttribute;
import jakarta.persistence.metamodel.SingularAttribute;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ReferenceData;
import org.atomicshards.annotations.ShardIndex;
import org.atomicshards.annotations.ShardKey;
import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.AttributeKind;
import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.IdGeneration;
import org.atomicshards.model.ModelDescription;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.generator.Generator;
import org.hibernate.metamodel.mapping.AttributeMapping;
import org.hibernate.metamodel.mapping.EmbeddableValuedModelPart;
import org.hibernate.metamodel.mapping.ManagedMappingType;
import org.hibernate.persister.entity.EntityPersister;
import org.hibernate.id.Assigned;
import org.hibernate.id.IdentityGenerator;
import org.hibernate.id.UUIDGenerator;
import org.hibernate.id.enhanced.SequenceStyleGenerator;
import org.hibernate.id.enhanced.TableGenerator;
import org.hibernate.id.uuid.UuidGenerator;

/**
 * Fills the rule book's neutral {@link ModelDescription} from Hibernate's metamodel, so that the runtime checks
 * exactly the rules the annotation processor checks, on what Hibernate really maps (entities compiled without the
 * processor included). Each attribute's {@code source} is its Java member.
 */
final class ModelDescriber {

    private final SessionFactoryImplementor sessionFactory;

    ModelDescriber(SessionFactoryImplementor sessionFactory) {
        this.sessionFactory = sessionFactory;
    }

    ModelDescription describe() {
        List<EntityDescription> entities = new ArrayList<>();
        for (EntityType<?> entity : sessionFactory.getJpaMetamodel().getEntities()) {
            Class<?> type = entity.getJavaType();
            if (type == null || type == java.util.Map.class) {
                continue; // dynamic-map entities carry no annotations to check
            }
            EntityDescription.Builder builder = EntityDescription.builder(type.getName())
                    .atomicUnit(type.getDeclaredAnnotation(AtomicUnit.class) != null)
                    .referenceData(type.getDeclaredAnnotation(ReferenceData.class) != null)
                    .idGeneration(idGeneration(type))
                    .source(type);
            superEntity(entity).ifPresent(builder::superEntity);
            if (!entity.hasSingleIdAttribute() && entity.getIdType() != null) {
                builder.idClass(entity.getIdType().getJavaType().getName());
            }
            EntityPersister persister = sessionFactory.getMappingMetamodel().getEntityDescriptor(type);
            for (Attribute<?, ?> attribute : entity.getAttributes()) {
                builder.attribute(describe(attribute, persister));
            }
            entities.add(builder.build());
        }
        return ModelDescription.of(entities);
    }

    private static Optional<String> superEntity(EntityType<?> entity) {
        for (IdentifiableType<?> parent = entity.getSupertype(); parent != null; parent = parent.getSupertype()) {
            if (parent instanceof EntityType<?> parentEntity) {
                return Optional.of(parentEntity.getJavaType().getName());
            }
        }
        return Optional.empty();
    }

    /**
     * @param owner the mapping of the entity or embeddable declaring {@code attribute}; {@code null} for components of
     *              element collections, whose updatability only the annotations tell
     */
    private AttributeDescription describe(Attribute<?, ?> attribute, ManagedMappingType owner) {
        AttributeKind kind = kindOf(attribute.getPersistentAttributeType());
        Class<?> valueType = attribute instanceof PluralAttribute<?, ?, ?> plural
                ? plural.getElementType().getJavaType() : attribute.getJavaType();
        Member member = attribute.getJavaMember();
        AnnotatedElement element = member instanceof AnnotatedElement annotated ? annotated : null;
        AttributeDescription.Builder builder = AttributeDescription.builder(attribute.getName(), kind)
                .javaType(valueType.getName())
                .id(attribute instanceof SingularAttribute<?, ?> singular && singular.isId())
                .shardKey(element != null && element.isAnnotationPresent(ShardKey.class))
                .source(member);
        ShardIndex index = element == null ? null : element.getAnnotation(ShardIndex.class);
        builder.shardIndex(index != null, index != null && index.unique());
        if (kind.isAssociation()) {
            builder.targetEntity(valueType.getName());
            String mappedBy = mappedBy(element);
            if (mappedBy != null) {
                builder.mappedBy(mappedBy);
            }
        }
        Column column = annotation(element, Column.class);
        JoinColumn joinColumn = annotation(element, JoinColumn.class);
        JoinColumns joinColumns = annotation(element, JoinColumns.class);
        if (joinColumn == null && joinColumns != null && joinColumns.value().length > 0) {
            describeColumns(builder, joinColumns, owner == null ? null : owner.findAttributeMapping(attribute.getName()));
        } else if (column != null) {
            builder.updatable(column.updatable()).insertable(column.insertable());
            if (!column.name().isEmpty()) {
                builder.column(column.name());
            }
        } else if (joinColumn != null) {
            builder.updatable(joinColumn.updatable()).insertable(joinColumn.insertable());
            if (!joinColumn.name().isEmpty()) {
                builder.column(joinColumn.name());
            }
        } else if (kind == AttributeKind.BASIC) {
            builder.column(attribute.getName());
        }
        ManagedType<?> embeddable = embeddableOf(attribute);
        if (embeddable != null) {
            ManagedMappingType components = owner != null
                    && owner.findAttributeMapping(attribute.getName()) instanceof EmbeddableValuedModelPart embedded
                    ? embedded.getEmbeddableTypeDescriptor() : null;
            for (Attribute<?, ?> component : embeddable.getAttributes()) {
                builder.component(describe(component, components));
            }
        }
        return builder.build();
    }

    /**
     * A multi-column key ({@code @JoinColumns}) as Hibernate maps it: updatable or insertable if any of its columns is,
     * read from Hibernate's mapping model, or from the annotations (as the annotation processor does) when the
     * attribute has no mapping of its own. No single column is recorded.
     */
    private static void describeColumns(AttributeDescription.Builder builder, JoinColumns joinColumns, AttributeMapping mapping) {
        if (mapping != null) {
            builder.updatable(mapping.getAttributeMetadata().isUpdatable())
                    .insertable(mapping.getAttributeMetadata().isInsertable());
            return;
        }
        builder.updatable(Arrays.stream(joinColumns.value()).anyMatch(JoinColumn::updatable))
                .insertable(Arrays.stream(joinColumns.value()).anyMatch(JoinColumn::insertable));
    }

    private ManagedType<?> embeddableOf(Attribute<?, ?> attribute) {
        Class<?> type = attribute instanceof PluralAttribute<?, ?, ?> plural
                ? plural.getElementType().getJavaType() : attribute.getJavaType();
        if (attribute.getPersistentAttributeType() != Attribute.PersistentAttributeType.EMBEDDED
                && attribute.getPersistentAttributeType() != Attribute.PersistentAttributeType.ELEMENT_COLLECTION) {
            return null;
        }
        for (EmbeddableType<?> embeddable : sessionFactory.getJpaMetamodel().getEmbeddables()) {
            if (embeddable.getJavaType() == type) {
                return embeddable;
            }
        }
        return null;
    }

    private static String mappedBy(AnnotatedElement element) {
        OneToMany oneToMany = annotation(element, OneToMany.class);
        if (oneToMany != null && !oneToMany.mappedBy().isEmpty()) {
            return oneToMany.mappedBy();
        }
        OneToOne oneToOne = annotation(element, OneToOne.class);
        if (oneToOne != null && !oneToOne.mappedBy().isEmpty()) {
            return oneToOne.mappedBy();
        }
        ManyToMany manyToMany = annotation(element, ManyToMany.class);
        if (manyToMany != null && !manyToMany.mappedBy().isEmpty()) {
            return manyToMany.mappedBy();
        }
        return null;
    }

    private static <A extends Annotation> A annotation(AnnotatedElement element, Class<A> type) {
        return element == null ? null : element.getAnnotation(type);
    }

    private static AttributeKind kindOf(Attribute.PersistentAttributeType type) {
        return switch (type) {
            case BASIC -> AttributeKind.BASIC;
            case EMBEDDED -> AttributeKind.EMBEDDED;
            case MANY_TO_ONE -> AttributeKind.MANY_TO_ONE;
            case ONE_TO_ONE -> AttributeKind.ONE_TO_ONE;
            case ONE_TO_MANY -> AttributeKind.ONE_TO_MANY;
            case MANY_TO_MANY -> AttributeKind.MANY_TO_MANY;
            case ELEMENT_COLLECTION -> AttributeKind.ELEMENT_COLLECTION;
        };
    }

    /** Recognises Hibernate's legacy {@code UUIDGenerator} too (deprecated for removal), which mappings may still name. */
    @SuppressWarnings({"deprecation", "removal"})
    private IdGeneration idGeneration(Class<?> type) {
        Generator generator = sessionFactory.getMappingMetamodel().getEntityDescriptor(type).getGenerator();
        if (generator == null || generator instanceof Assigned) {
            return IdGeneration.ASSIGNED;
        }
        if (generator instanceof IdentityGenerator) {
            return IdGeneration.IDENTITY;
        }
        if (generator instanceof SequenceStyleGenerator) {
            return IdGeneration.SEQUENCE;
        }
        if (generator instanceof TableGenerator) {
            return IdGeneration.TABLE;
        }
        if (generator instanceof UuidGenerator || generator instanceof UUIDGenerator) {
            return IdGeneration.UUID;
        }
        return IdGeneration.CUSTOM;
    }
}
