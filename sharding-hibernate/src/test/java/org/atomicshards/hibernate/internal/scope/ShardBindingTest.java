package org.atomicshards.hibernate.internal.scope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.ShardId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The thread's shard binding: what each reason allows, the one cross-shard check, and the restore afterwards. */
class ShardBindingTest {

    private static final ShardId S0 = ShardId.of("s0");
    private static final ShardId S1 = ShardId.of("s1");
    private final Object factory = new Object();
    private final Object otherFactory = new Object();

    @Nested
    class AUnitOfWork {

        @Test
        void bindsItsShardForItsFactoryAndIsGoneAfterwards() {
            ShardId inside = ShardBinding.inNewUnitOfWork(factory, S0, "session", () -> ShardBinding.shard(factory));
            assertThat(inside).isEqualTo(S0);
            assertThat(ShardBinding.shard(factory)).isNull();
            assertThat(ShardBinding.unitOfWork(factory)).isNull();
        }

        @Test
        void isJoinedByWorkOnTheSameShard() {
            ShardBinding joined = ShardBinding.inNewUnitOfWork(factory, S0, "session",
                    () -> ShardBinding.join(factory, S0, () -> "persist Order"));
            assertThat(joined.shard()).isEqualTo(S0);
            assertThat(joined.session()).isEqualTo("session");
            assertThat(joined.reason()).isEqualTo(ShardBinding.Reason.UNIT_OF_WORK);
        }

        @Test
        void rejectsWorkOnASecondShardWithTheOneMessage() {
            assertThatThrownBy(() -> ShardBinding.inNewUnitOfWork(factory, S0, null,
                    () -> ShardBinding.join(factory, S1, () -> "persist Order")))
                    .isInstanceOf(CrossShardUnitOfWorkException.class)
                    .hasMessageStartingWith("Cannot persist Order on shard 's1' inside the unit of work bound to "
                            + "shard 's0': a unit of work is one shard and one local transaction. Nothing was run");
        }

        @Test
        void rejectsWorkOnEveryShardOnlyWhileItHoldsASession() {
            assertThatThrownBy(() -> ShardBinding.inNewUnitOfWork(factory, S0, "session", () -> {
                ShardBinding.requireNoOpenUnitOfWork(factory, "replicate reference data");
                return null;
            })).isInstanceOf(CrossShardUnitOfWorkException.class)
                    .hasMessageContaining("Cannot replicate reference data on every shard inside the unit of work "
                            + "bound to shard 's0'");
            List<String> ran = new ArrayList<>();
            ShardBinding.inNewUnitOfWork(factory, S0, null, () -> {
                ShardBinding.requireNoOpenUnitOfWork(factory, "replicate reference data");
                return ran.add("pinned without a session");
            });
            assertThat(ran).containsExactly("pinned without a session");
        }

        @Test
        void ofAnotherFactoryDoesNotBindThisOnesUnits() {
            ShardBinding joined = ShardBinding.inNewUnitOfWork(otherFactory, S0, "session",
                    () -> ShardBinding.join(factory, S1, () -> "persist Order"));
            assertThat(joined).isNull();
        }
    }

    @Nested
    class AScope {

        @Test
        void appliesToEveryFactoryAndMayNameAnotherShardInside() {
            List<ShardId> seen = new ArrayList<>();
            ShardBinding.inScope(S0, () -> {
                seen.add(ShardBinding.shard(factory));
                ShardBinding.inScope(S1, () -> seen.add(ShardBinding.shard(otherFactory)));
                return seen.add(ShardBinding.shard(null));
            });
            assertThat(seen).containsExactly(S0, S1, S0);
            assertThat(ShardBinding.shard(null)).isNull();
        }

        @Test
        void insideAUnitOfWorkDoesNotLetANestedUnitReachAnotherShard() {
            assertThatThrownBy(() -> ShardBinding.inNewUnitOfWork(factory, S0, null,
                    () -> ShardBinding.inScope(S1, () -> ShardBinding.join(factory, S1, () -> "run unit Order key 7"))))
                    .isInstanceOf(CrossShardUnitOfWorkException.class)
                    .hasMessageContaining("bound to shard 's0'");
        }
    }

    @Nested
    class AReplication {

        @Test
        void isVisibleWhileItRunsOnly() {
            List<Boolean> seen = new ArrayList<>();
            ShardBinding.replicating(factory, () -> seen.add(ShardBinding.replicating()));
            seen.add(ShardBinding.replicating());
            assertThat(seen).containsExactly(true, false);
        }

        @Test
        void endsEvenWhenTheWorkFails() {
            assertThatThrownBy(() -> ShardBinding.replicating(factory, () -> {
                throw new IllegalStateException("boom");
            })).hasMessage("boom");
            assertThat(ShardBinding.replicating()).isFalse();
        }
    }
}
