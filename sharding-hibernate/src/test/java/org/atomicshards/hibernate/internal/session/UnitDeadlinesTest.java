package org.atomicshards.hibernate.internal.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.atomicshards.hibernate.ShardId;
import org.junit.jupiter.api.Test;

/**
 * The watchdog's bookkeeping without a database: a unit in its thread's slot, a unit begun while that slot is taken
 * (kept in the shared set) and a unit whose thread has ended all have their connection aborted at the deadline; a unit
 * that ends in time is left alone. (Aborting a real statement is tested end to end in {@code TransactionTimeoutTest}.)
 */
class UnitDeadlinesTest {

    private static final ShardId SHARD = ShardId.of("s0");

    private final List<Connection> aborted = new CopyOnWriteArrayList<>();

    @Test
    void aUnitBegunWhileItsThreadsSlotIsTakenIsAbortedAtItsDeadlineToo() throws Exception {
        Connection outer = connection();
        Connection inner = connection();
        try (UnitDeadlines deadlines = deadlines(20)) {
            UnitDeadlines.Deadline outerUnit = deadlines.beginHeldBy(SHARD, outer);
            UnitDeadlines.Deadline innerUnit = deadlines.beginHeldBy(SHARD, inner);
            awaitAborted(2);
            assertThat(aborted).containsExactlyInAnyOrder(outer, inner);
            assertThat(innerUnit.end()).isTrue();
            assertThat(outerUnit.end()).isTrue();
        }
    }

    @Test
    void aUnitEndedInTimeIsLeftAloneAndFreesTheSlotForTheNextUnit() throws Exception {
        Connection first = connection();
        Connection second = connection();
        try (UnitDeadlines deadlines = deadlines(100)) {
            assertThat(deadlines.beginHeldBy(SHARD, first).end()).isFalse();
            deadlines.beginHeldBy(SHARD, second);
            awaitAborted(1);
            Thread.sleep(200);
            assertThat(aborted).containsExactly(second);
        }
    }

    @Test
    void aUnitWhoseThreadEndedIsStillAbortedAtItsDeadline() throws Exception {
        Connection held = connection();
        try (UnitDeadlines deadlines = deadlines(20)) {
            Thread other = new Thread(() -> deadlines.beginHeldBy(SHARD, held));
            other.start();
            other.join();
            awaitAborted(1);
            assertThat(aborted).containsExactly(held);
        }
    }

    /** Deadlines whose units are held by the connection itself; aborted connections are collected. */
    private UnitDeadlines deadlines(long timeoutMillis) {
        return new UnitDeadlines(timeoutMillis, (shard, c) -> aborted.add(c), "test-watchdog",
                unit -> (Connection) unit);
    }

    private void awaitAborted(int count) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (aborted.size() < count && System.nanoTime() < until) {
            Thread.sleep(5);
        }
    }

    private static Connection connection() {
        return (Connection) Proxy.newProxyInstance(UnitDeadlinesTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> method.getName().equals("equals")
                        ? proxy == args[0] : method.getName().equals("hashCode") ? System.identityHashCode(proxy)
                        : null);
    }
}
