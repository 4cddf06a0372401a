package org.atomicshards.hibernate.internal.fanout;

import java.util.Collection;
import java.util.List;

import org.atomicshards.hibernate.internal.fanout.aggregate.Values;
import org.hibernate.query.sqm.ComparisonOperator;

/**
 * A HAVING predicate evaluated on merged groups, with SQL's three-valued logic: {@code null} is UNKNOWN, and a
 * group is kept only when the condition is TRUE.
 */
interface HavingCondition {

    /** TRUE, FALSE or null (UNKNOWN) for one merged row's items. */
    Boolean test(Object[] items, ParameterBindings bindings, Values values);

    /** A value inside the condition: an item of the merged row, a literal, or a bound parameter. */
    interface Operand {
        Object value(Object[] items, ParameterBindings bindings);
    }

    static Boolean not(Boolean value) {
        return value == null ? null : !value;
    }

    record And(List<HavingCondition> parts) implements HavingCondition {
        @Override
        public Boolean test(Object[] items, ParameterBindings bindings, Values values) {
            boolean unknown = false;
            for (HavingCondition part : parts) {
                Boolean result = part.test(items, bindings, values);
                if (result == null) {
                    unknown = true;
                }
                else if (!result) {
                    return false;
                }
            }
            return unknown ? null : true;
        }
    }

    record Or(List<HavingCondition> parts) implements HavingCondition {
        @Override
        public Boolean test(Object[] items, ParameterBindings bindings, Values values) {
            boolean unknown = false;
            for (HavingCondition part : parts) {
                Boolean result = part.test(items, bindings, values);
                if (result == null) {
                    unknown = true;
                }
                else if (result) {
                    return true;
                }
            }
            return unknown ? null : false;
        }
    }

    record Not(HavingCondition part) implements HavingCondition {
        @Override
        public Boolean test(Object[] items, ParameterBindings bindings, Values values) {
            return not(part.test(items, bindings, values));
        }
    }

    record Comparison(Operand left, ComparisonOperator operator, Operand right) implements HavingCondition {
        @Override
        public Boolean test(Object[] items, ParameterBindings bindings, Values values) {
            Object l = left.value(items, bindings);
            Object r = right.value(items, bindings);
            switch (operator) {
                case DISTINCT_FROM:
                    return !(l == null ? r == null : r != null && values.equal(l, r));
                case NOT_DISTINCT_FROM:
                    return l == null ? r == null : r != null && values.equal(l, r);
                default:
                    break;
            }
            if (l == null || r == null) {
                return null;
            }
            switch (operator) {
                case EQUAL:
                    return values.equal(l, r);
                case NOT_EQUAL:
                    return !values.equal(l, r);
                case LESS_THAN:
                    return values.compare(l, r) < 0;
                case LESS_THAN_OR_EQUAL:
                    return values.compare(l, r) <= 0;
                case GREATER_THAN:
                    return values.compare(l, r) > 0;
                case GREATER_THAN_OR_EQUAL:
                    return values.compare(l, r) >= 0;
                default:
                    throw new IllegalStateException("Unexpected operator " + operator);
            }
        }
    }

    record Between(Operand value, Operand lower, Operand upper) implements HavingCondition {
        @Override
        public Boolean test(Object[] items, ParameterBindings bindings, Values values) {
            Object v = value.value(items, bindings);
            Boolean atLeast = new Comparison(value, ComparisonOperator.GREATER_THAN_OR_EQUAL, lower)
                    .test(items, bindings, values);
            Boolean atMost = new Comparison(value, ComparisonOperator.LESS_THAN_OR_EQUAL, upper)
                    .test(items, bindings, values);
            return v == null ? null : new And(List.of((i, b, x) -> atLeast, (i, b, x) -> atMost))
                    .test(items, bindings, values);
        }
    }

    record In(Operand value, List<Operand> list) implements HavingCondition {
        @Override
        public Boolean test(Object[] items, ParameterBindings bindings, Values values) {
            Object v = value.value(items, bindings);
            if (v == null) {
                return null;
            }
            boolean unknown = false;
            for (Operand operand : list) {
                Object candidate = operand.value(items, bindings);
                Collection<?> candidates = candidate instanceof Collection<?> c ? c : java.util.Arrays.asList(candidate);
                for (Object element : candidates) {
                    if (element == null) {
                        unknown = true;
                    }
                    else if (values.equal(v, element)) {
                        return true;
                    }
                }
            }
            return unknown ? null : false;
        }
    }

    record IsNull(Operand value) implements HavingCondition {
        @Override
        public Boolean test(Object[] items, ParameterBindings bindings, Values values) {
            return value.value(items, bindings) == null;
        }
    }
}
