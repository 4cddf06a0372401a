package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.List;

import org.atomicshards.hibernate.internal.fanout.aggregate.Values;
import org.hibernate.query.sqm.ComparisonOperator;
import org.junit.jupiter.api.Test;

/** HAVING on merged groups follows SQL's three-valued logic: a comparison with NULL is UNKNOWN. */
class HavingConditionTest {

    private final Values values = new Values(Comparator.naturalOrder());
    private final ParameterBindings bindings = new ParameterBindings();

    private static HavingCondition.Operand item(int index) {
        return (items, bindings) -> items[index];
    }

    private static HavingCondition.Operand constant(Object value) {
        return (items, bindings) -> value;
    }

    private Boolean test(HavingCondition condition, Object... items) {
        return condition.test(items, bindings, values);
    }

    @Test
    void comparisonsWithNullAreUnknownAndNotKeepsThemUnknown() {
        HavingCondition greater = new HavingCondition.Comparison(item(0), ComparisonOperator.GREATER_THAN,
                constant(10L));
        assertThat(test(greater, 11L)).isTrue();
        assertThat(test(greater, (Object) null)).isNull();
        assertThat(test(new HavingCondition.Not(greater), (Object) null)).isNull();
        assertThat(test(new HavingCondition.Comparison(item(0), ComparisonOperator.DISTINCT_FROM, constant(null)),
                (Object) null)).isFalse();
    }

    @Test
    void andOrFollowKleeneLogic() {
        HavingCondition unknown = new HavingCondition.Comparison(item(0), ComparisonOperator.EQUAL, constant(1));
        HavingCondition falseOne = new HavingCondition.Comparison(item(1), ComparisonOperator.EQUAL, constant(1));
        HavingCondition trueOne = new HavingCondition.Comparison(item(1), ComparisonOperator.EQUAL, constant(2));
        Object[] row = {null, 2};
        assertThat(test(new HavingCondition.And(List.of(unknown, falseOne)), row)).isFalse();
        assertThat(test(new HavingCondition.And(List.of(unknown, trueOne)), row)).isNull();
        assertThat(test(new HavingCondition.Or(List.of(unknown, trueOne)), row)).isTrue();
        assertThat(test(new HavingCondition.Or(List.of(unknown, falseOne)), row)).isNull();
    }

    @Test
    void inAndBetween() {
        HavingCondition in = new HavingCondition.In(item(0), List.of(constant(1L), constant(null)));
        assertThat(test(in, 1L)).isTrue();
        assertThat(test(in, 2L)).as("no match, but a NULL in the list").isNull();
        HavingCondition between = new HavingCondition.Between(item(0), constant(2.5), constant(3.5));
        assertThat(test(between, 3L)).isTrue();
        assertThat(test(between, 4L)).isFalse();
        assertThat(test(between, (Object) null)).isNull();
    }
}
