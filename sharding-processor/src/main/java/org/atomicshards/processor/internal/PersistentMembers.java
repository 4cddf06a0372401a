package org.atomicshards.processor.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/**
 * Finds the persistent attributes of a class the way Hibernate does: fields under field access, getters under
 * property access, the access type coming from an explicit {@code @Access} or else from where the hierarchy's
 * {@code @Id} sits; {@code static}, {@code transient} and {@code @Transient} members are not persistent.
 */
final class PersistentMembers {

    /** Jakarta Persistence access types. */
    enum Access {
        FIELD, PROPERTY
    }

    /**
     * A persistent attribute.
     *
     * @param element the field or getter Hibernate reads the mapping from
     * @param name    the attribute name
     * @param type    the attribute's declared type
     */
    record Member(Element element, String name, TypeMirror type) {
    }

    private PersistentMembers() {
    }

    /** The explicit class-level {@code @Access} of {@code type}, if any. */
    static Optional<Access> explicitAccess(TypeElement type) {
        return Mirrors.find(type, Names.ACCESS).flatMap(mirror -> Mirrors.enumConstant(mirror, "value")).map(Access::valueOf);
    }

    /**
     * The default access of an entity hierarchy: where its {@code @Id} or {@code @EmbeddedId} is placed, looking at
     * {@code type} and its entity and mapped superclasses; field access when none is found.
     */
    static Access defaultAccess(TypeElement type) {
        for (TypeElement current : Hierarchy.persistentChain(type)) {
            for (Element member : current.getEnclosedElements()) {
                if (Mirrors.has(member, Names.ID) || Mirrors.has(member, Names.EMBEDDED_ID)) {
                    return member.getKind() == ElementKind.METHOD ? Access.PROPERTY : Access.FIELD;
                }
            }
        }
        return Access.FIELD;
    }

    /** The persistent attributes declared by {@code type} itself, under {@code access}, in declaration order. */
    static List<Member> declaredBy(TypeElement type, Access access) {
        List<Member> members = new ArrayList<>();
        for (Element element : type.getEnclosedElements()) {
            if (element.getModifiers().contains(Modifier.STATIC) || Mirrors.has(element, Names.TRANSIENT)) {
                continue;
            }
            if (element.getKind() == ElementKind.FIELD) {
                boolean persistent = access == Access.FIELD ? !element.getModifiers().contains(Modifier.TRANSIENT)
                        : explicitMemberAccess(element).filter(Access.FIELD::equals).isPresent();
                if (persistent) {
                    members.add(new Member(element, element.getSimpleName().toString(), element.asType()));
                }
            } else if (element.getKind() == ElementKind.METHOD) {
                ExecutableElement method = (ExecutableElement) element;
                Optional<String> property = propertyName(method);
                boolean persistent = property.isPresent() && (access == Access.PROPERTY
                        || explicitMemberAccess(element).filter(Access.PROPERTY::equals).isPresent());
                if (persistent) {
                    members.add(new Member(element, property.get(), method.getReturnType()));
                }
            }
        }
        return members;
    }

    /** The JavaBeans property name of a getter ({@code getCustomerId} gives {@code customerId}); empty if not a getter. */
    static Optional<String> propertyName(ExecutableElement method) {
        if (!method.getParameters().isEmpty() || method.getReturnType().getKind() == TypeKind.VOID) {
            return Optional.empty();
        }
        String name = method.getSimpleName().toString();
        if (name.startsWith("get") && name.length() > 3) {
            return Optional.of(decapitalize(name.substring(3)));
        }
        boolean isBoolean = method.getReturnType().getKind() == TypeKind.BOOLEAN
                || method.getReturnType().toString().equals("java.lang.Boolean");
        if (name.startsWith("is") && name.length() > 2 && isBoolean) {
            return Optional.of(decapitalize(name.substring(2)));
        }
        return Optional.empty();
    }

    private static Optional<Access> explicitMemberAccess(Element element) {
        return Mirrors.find(element, Names.ACCESS).flatMap(mirror -> Mirrors.enumConstant(mirror, "value")).map(Access::valueOf);
    }

    /** As {@code java.beans.Introspector.decapitalize}: {@code CustomerId} gives {@code customerId}, {@code URL} stays. */
    private static String decapitalize(String name) {
        if (name.length() > 1 && Character.isUpperCase(name.charAt(0)) && Character.isUpperCase(name.charAt(1))) {
            return name;
        }
        return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }
}
