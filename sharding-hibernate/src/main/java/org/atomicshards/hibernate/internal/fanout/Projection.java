package org.atomicshards.hibernate.internal.fanout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.persistence.Tuple;
import jakarta.persistence.TupleElement;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.hibernate.query.sqm.tree.expression.SqmAliasedNodeRef;
import org.hibernate.query.sqm.tree.expression.SqmExpression;
import org.hibernate.query.sqm.tree.select.SqmDynamicInstantiation;
import org.hibernate.query.sqm.tree.select.SqmDynamicInstantiationArgument;
import org.hibernate.query.sqm.tree.select.SqmJpaCompoundSelection;
import org.hibernate.query.sqm.tree.select.SqmQuerySpec;
import org.hibernate.query.sqm.tree.select.SqmSelectStatement;
import org.hibernate.query.sqm.tree.select.SqmSelectableNode;
import org.hibernate.query.sqm.tree.select.SqmSelection;

/**
 * The planning step of the SELECT list: the flat list of expressions a merged row shows (its leaves: one per
 * selection, tuple element or constructor argument) and the shape the result is built in from them.
 */
final class Projection {

    private final SqmSelectStatement<?> statement;
    private final SqmQuerySpec<?> spec;
    private final List<SqmExpression<?>> leaves = new ArrayList<>();
    private final ResultShape shape;

    Projection(SqmSelectStatement<?> statement) {
        this.statement = statement;
        this.spec = statement.getQuerySpec();
        this.shape = collectLeavesAndShape();
    }

    /** The selected expressions, in the order the result shows them. */
    List<SqmExpression<?>> leaves() {
        return leaves;
    }

    ResultShape shape() {
        return shape;
    }

    /** The expression itself, or the selected expression a position in ORDER BY or GROUP BY refers to. */
    SqmExpression<?> resolve(SqmExpression<?> expression) {
        if (expression instanceof SqmAliasedNodeRef ref) {
            int index = ref.getPosition() - 1;
            if (index < 0 || index >= leaves.size()) {
                throw new UnsupportedFanOutQueryException("positional reference " + ref.getPosition(),
                        "Repeat the expression instead of referring to it by position.");
            }
            return leaves.get(index);
        }
        return expression;
    }

    private ResultShape collectLeavesAndShape() {
        List<SqmSelection<?>> selections = spec.getSelectClause().getSelections();
        Class<?> resultType = statement.getResultType();
        if (selections.isEmpty()) {
            if (spec.getRootList().size() != 1) {
                throw new UnsupportedFanOutQueryException("a query without a SELECT clause and "
                        + spec.getRootList().size() + " roots", "Name the selection explicitly.");
            }
            leaves.add(spec.getRootList().get(0));
            return wrapSingle(resultType, spec.getRootList().get(0));
        }
        if (selections.size() == 1) {
            SqmSelectableNode<?> node = selections.get(0).getSelectableNode();
            if (node instanceof SqmDynamicInstantiation<?> instantiation) {
                return instantiation(instantiation);
            }
            if (node instanceof SqmJpaCompoundSelection<?> compound) {
                return compound(compound);
            }
            leaves.add(leaf(node));
            return wrapSingle(resultType, node);
        }
        List<TupleElement<?>> elements = new ArrayList<>();
        List<String> aliases = new ArrayList<>();
        List<Class<?>> types = new ArrayList<>();
        for (SqmSelection<?> selection : selections) {
            SqmSelectableNode<?> node = selection.getSelectableNode();
            leaves.add(leaf(node));
            elements.add(node);
            aliases.add(selection.getAlias());
            types.add(node.getJavaType());
        }
        return multiple(resultType, elements, aliases, types);
    }

    private ResultShape compound(SqmJpaCompoundSelection<?> compound) {
        List<TupleElement<?>> elements = new ArrayList<>();
        for (SqmSelectableNode<?> item : compound.getSelectionItems()) {
            leaves.add(leaf(item));
            elements.add(item);
        }
        Class<?> type = compound.getJavaType();
        if (type != null && Tuple.class.isAssignableFrom(type)) {
            return ResultShapes.tuple(elements);
        }
        if (type != null && type.isArray() && type != Object[].class) {
            return ResultShapes.typedArray(type.getComponentType());
        }
        return ResultShapes.array();
    }

    private static ResultShape wrapSingle(Class<?> resultType, SqmSelectableNode<?> node) {
        if (resultType == Object[].class) {
            return ResultShapes.array();
        }
        if (resultType != null && Tuple.class.isAssignableFrom(resultType)) {
            return ResultShapes.tuple(List.of(node));
        }
        return ResultShapes.single();
    }

    private static ResultShape multiple(Class<?> resultType, List<TupleElement<?>> elements, List<String> aliases,
                                        List<Class<?>> types) {
        if (resultType == null || resultType == Object.class || resultType == Object[].class) {
            return ResultShapes.array();
        }
        if (Tuple.class.isAssignableFrom(resultType)) {
            return ResultShapes.tuple(elements);
        }
        if (resultType == List.class) {
            return ResultShapes.list();
        }
        if (resultType == Map.class) {
            return ResultShapes.map(aliases);
        }
        if (resultType.isArray()) {
            return ResultShapes.typedArray(resultType.getComponentType());
        }
        return ResultShapes.constructor(resultType, types);
    }

    private ResultShape instantiation(SqmDynamicInstantiation<?> instantiation) {
        List<Class<?>> types = new ArrayList<>();
        List<String> aliases = new ArrayList<>();
        for (SqmDynamicInstantiationArgument<?> argument : instantiation.getArguments()) {
            SqmSelectableNode<?> node = argument.getSelectableNode();
            leaves.add(leaf(node));
            types.add(node.getJavaType());
            aliases.add(argument.getAlias());
        }
        switch (instantiation.getInstantiationTarget().getNature()) {
            case LIST:
                return ResultShapes.list();
            case MAP:
                return ResultShapes.map(aliases);
            default:
                return ResultShapes.constructor(instantiation.getInstantiationTarget().getJavaType(), types);
        }
    }

    private static SqmExpression<?> leaf(SqmSelectableNode<?> node) {
        if (node instanceof SqmExpression<?> expression) {
            return expression;
        }
        throw new UnsupportedFanOutQueryException("nested selection " + node.getClass().getSimpleName(),
                "Select plain expressions, entities, one tuple/array or one 'new' instantiation.");
    }
}
