package org.atomicshards.processor.internal;

import java.util.Collection;
import java.util.Optional;

import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.util.Elements;
import javax.tools.Diagnostic;

import org.atomicshards.model.Message;
import org.atomicshards.model.Site;
import org.atomicshards.processor.internal.PersistentMembers.Access;

/**
 * Checks what only the sources show: Atomic Shards annotations on classes Hibernate does not map, and
 * {@code @ShardKey} on members that are not persistent attributes (static, transient, not a getter, or on the
 * side that the class's access type ignores).
 */
final class AnnotationPlacementCheck {

    private final Elements elements;
    private final DiagnosticReporter reporter;

    AnnotationPlacementCheck(Elements elements, DiagnosticReporter reporter) {
        this.elements = elements;
        this.reporter = reporter;
    }

    void checkTypes(Collection<TypeElement> annotatedTypes) {
        for (TypeElement type : annotatedTypes) {
            if (Hierarchy.isEntity(type)) {
                continue;
            }
            String name = elements.getBinaryName(type).toString();
            if (Mirrors.has(type, Names.ATOMIC_UNIT)) {
                reporter.print(Diagnostic.Kind.ERROR, Message.ANNOTATION_ON_NON_ENTITY.format("AtomicUnit", name), type,
                        Site.ATOMIC_UNIT);
            }
            if (Mirrors.has(type, Names.REFERENCE_DATA)) {
                reporter.print(Diagnostic.Kind.ERROR, Message.ANNOTATION_ON_NON_ENTITY.format("ReferenceData", name), type,
                        Site.REFERENCE_DATA);
            }
        }
    }

    void checkShardKeys(Collection<Element> shardKeys, ModelCollector collector) {
        for (Element element : shardKeys) {
            if (!(element.getEnclosingElement() instanceof TypeElement owner)) {
                continue;
            }
            String ownerName = elements.getBinaryName(owner).toString();
            String label = ownerName + "." + element.getSimpleName() + (element.getKind() == ElementKind.METHOD ? "()" : "");
            if (!Hierarchy.isEntity(owner) && !Hierarchy.isMappedSuperclass(owner) && !Hierarchy.isEmbeddable(owner)) {
                reporter.print(Diagnostic.Kind.ERROR, Message.SHARD_KEY_OUTSIDE_PERSISTENT_TYPE.format(label, ownerName),
                        element, Site.SHARD_KEY);
                continue;
            }
            notPersistentBecause(element, owner, collector).ifPresent(reasonAndFix -> reporter.print(Diagnostic.Kind.ERROR,
                    Message.SHARD_KEY_NOT_PERSISTENT.format(label, reasonAndFix[0], reasonAndFix[1]), element, Site.SHARD_KEY));
        }
    }

    private static Optional<String[]> notPersistentBecause(Element element, TypeElement owner, ModelCollector collector) {
        boolean field = element.getKind() == ElementKind.FIELD;
        if (element.getModifiers().contains(Modifier.STATIC)) {
            return Optional.of(new String[] {"it is static", "Put @ShardKey on an instance field or getter."});
        }
        if (field && element.getModifiers().contains(Modifier.TRANSIENT)) {
            return Optional.of(new String[] {"it is a transient field",
                    "Remove the transient modifier, or put @ShardKey on a persistent attribute."});
        }
        if (Mirrors.has(element, Names.TRANSIENT)) {
            return Optional.of(new String[] {"it is marked @Transient",
                    "Remove @Transient, or put @ShardKey on a persistent attribute."});
        }
        if (!field && PersistentMembers.propertyName((ExecutableElement) element).isEmpty()) {
            return Optional.of(new String[] {"it is a method but not a getter",
                    "Put @ShardKey on the field or on its getX()/isX() getter."});
        }
        Optional<Access> access = collector.accessOf(owner);
        if (access.isEmpty() || collector.isMapped(element)) {
            return Optional.empty();
        }
        if (field && access.get() == Access.PROPERTY) {
            return Optional.of(new String[] {"the class uses property access because its @Id is on a getter, so Hibernate "
                    + "ignores annotations on fields", "Move @ShardKey to the getter."});
        }
        if (!field && access.get() == Access.FIELD) {
            return Optional.of(new String[] {"the class uses field access because its @Id is on a field, so Hibernate "
                    + "ignores annotations on getters", "Move @ShardKey to the field."});
        }
        return Optional.empty();
    }
}
