package org.atomicshards.hibernate.internal.fanout.aggregate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.hibernate.dialect.H2Dialect;
import org.junit.jupiter.api.Test;

/** The registry of mergeable aggregates: each function name belongs to one kind. */
class MergeableAggregatesTest {

    @Test
    void twoKindsClaimingOneFunctionNameAreRejected() {
        MergeableAggregate everyAgain = new MergeableAggregate() {
            @Override
            public List<String> functionNames() {
                return List.of("BOOL_AND");
            }

            @Override
            public MergedValue plan(AggregateCall call, ShardColumns shards) {
                throw new AssertionError("never planned");
            }
        };

        assertThatThrownBy(() -> new MergeableAggregates(List.of(new Every(), everyAgain)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bool_and".toUpperCase())
                .hasMessageContaining(Every.class.getName());
    }

    @Test
    void theStandardKindsShareNoFunctionName() {
        assertThat(MergeableAggregates.standard(new H2Dialect(), () -> 4)).isNotNull();
    }
}
