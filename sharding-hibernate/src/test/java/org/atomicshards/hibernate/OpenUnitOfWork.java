package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.hibernate.Session;

/**
 * A transaction in flight: a unit of work of a user that does its work (adds a status, say), flushes it and stays open
 * until {@linkplain #release() released} (or for at most a minute), on a thread of its own.
 */
final class OpenUnitOfWork {

    private final CountDownLatch release = new CountDownLatch(1);
    private final CompletableFuture<Void> done;

    private OpenUnitOfWork(ShardedSessionFactory factory, long user, Consumer<Session> work, CountDownLatch flushed) {
        done = CompletableFuture.runAsync(() -> factory.inUnit(User.class, user, session -> {
            work.accept(session);
            session.flush();
            flushed.countDown();
            try {
                release.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
    }

    /** Starts the unit of work and returns once its status is flushed (fails the test after 30 s). */
    static OpenUnitOfWork flushStatus(ShardedSessionFactory factory, long user, String text)
            throws InterruptedException {
        return flush(factory, user, session -> session.persist(new Status(session.find(User.class, user), text)));
    }

    /** Starts a unit of work of {@code user} running {@code work}; returns once it is flushed (fails after 30 s). */
    static OpenUnitOfWork flush(ShardedSessionFactory factory, long user, Consumer<Session> work)
            throws InterruptedException {
        CountDownLatch flushed = new CountDownLatch(1);
        OpenUnitOfWork open = new OpenUnitOfWork(factory, user, work, flushed);
        assertThat(flushed.await(30, TimeUnit.SECONDS)).as("the open unit of work flushed").isTrue();
        return open;
    }

    /** Lets the unit of work commit (or find its session ended); {@link #done()} tells which. */
    void release() {
        release.countDown();
    }

    /** Completes when the unit of work has committed, exceptionally if it failed. */
    CompletableFuture<Void> done() {
        return done;
    }
}
