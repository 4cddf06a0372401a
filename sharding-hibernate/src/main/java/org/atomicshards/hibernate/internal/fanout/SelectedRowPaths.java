package org.atomicshards.hibernate.internal.fanout;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.hibernate.metamodel.MappingMetamodel;
import org.hibernate.metamodel.mapping.EmbeddableValuedModelPart;
import org.hibernate.metamodel.mapping.ForeignKeyDescriptor;
import org.hibernate.metamodel.mapping.ModelPart;
import org.hibernate.metamodel.mapping.ModelPartContainer;
import org.hibernate.metamodel.mapping.internal.ToOneAttributeMapping;
import org.hibernate.query.sqm.tree.domain.SqmPath;
import org.hibernate.query.sqm.tree.from.SqmFrom;

/**
 * Decides whether a path reads only columns of the row of one FROM element: an attribute of the entity, an
 * attribute of an embedded value (at any depth), or the identifier of a to-one whose foreign key is on that row
 * ({@code o.customer.id}, read from the foreign key without a join). Such a value is functionally dependent on the
 * entity, so adding it to a SELECT DISTINCT of the entity does not change which rows are distinct.
 */
final class SelectedRowPaths {

    private final MappingMetamodel metamodel;

    SelectedRowPaths(MappingMetamodel metamodel) {
        this.metamodel = metamodel;
    }

    /** Whether the path reads only the row of a FROM element that {@code selected} accepts. */
    boolean readsRowOf(SqmPath<?> path, Predicate<SqmFrom<?, ?>> selected) {
        List<String> names = new ArrayList<>();
        SqmPath<?> current = path;
        while (!(current instanceof SqmFrom<?, ?>)) {
            if (current == null) {
                return false;
            }
            names.add(0, current.getReferencedPathSource().getPathName());
            current = current.getLhs();
        }
        SqmFrom<?, ?> from = (SqmFrom<?, ?>) current;
        if (!selected.test(from) || names.isEmpty()) {
            return false;
        }
        if (names.size() == 1) {
            return true;
        }
        ModelPartContainer container = from.getJavaType() == null ? null
                : metamodel.findEntityDescriptor(from.getJavaType());
        for (int i = 0; container != null && i < names.size() - 1; i++) {
            ModelPart part = container.findSubPart(names.get(i), null);
            if (part instanceof EmbeddableValuedModelPart embedded) {
                container = embedded.getEmbeddableTypeDescriptor();
            }
            else if (part instanceof ToOneAttributeMapping toOne) {
                String rest = String.join(".", names.subList(i + 1, names.size()));
                return toOne.getSideNature() == ForeignKeyDescriptor.Nature.KEY && toOne.isFkOptimizationAllowed()
                        && toOne.getTargetKeyPropertyNames().contains(rest);
            }
            else {
                return false;
            }
        }
        return container != null;
    }
}
