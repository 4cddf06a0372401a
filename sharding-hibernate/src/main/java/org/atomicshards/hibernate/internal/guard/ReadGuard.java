package org.atomicshards.hibernate.internal.guard;

import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.event.spi.LoadEvent;
import org.hibernate.event.spi.LoadEventListener;

/**
 * Has every read by id ({@code find}, and so Spring Data's {@code findById}) in a session of a sharded factory, however
 * the session was opened, confirmed against the ownership fence of the session's shard: {@link Before} runs before
 * Hibernate's own load listener, {@link After} after it (two classes, as Hibernate takes two listeners of one class for
 * a duplicate). Before it is {@linkplain #activate activated} (during boot) it confirms nothing. Thread-safe.
 */
public abstract sealed class ReadGuard implements LoadEventListener permits ReadGuard.Before, ReadGuard.After {

    private static final long serialVersionUID = 1L;

    /** What confirms a read; called on the reading thread, in the reading session. */
    @FunctionalInterface
    public interface Confirmation {

        /**
         * Confirms that the session's shard holds the unit of the entity with {@code id}, or throws the exception the
         * application gets instead of the read's answer.
         */
        void confirm(SharedSessionContractImplementor session, String entityName, Object id);
    }

    private transient volatile Confirmation confirmation;

    private ReadGuard() {
    }

    /** Arms the guard with the factory's confirmation. */
    public void activate(Confirmation readConfirmation) {
        this.confirmation = readConfirmation;
    }

    @Override
    public void onLoad(LoadEvent event, LoadType loadType) {
        Confirmation current = confirmation;
        if (current != null && loadType == LoadEventListener.GET) {
            current.confirm(event.getSession(), event.getEntityClassName(), event.getEntityId());
        }
    }

    /** The confirmation before the read: the unit may still be arriving at the session's shard. */
    public static final class Before extends ReadGuard {
        private static final long serialVersionUID = 1L;
    }

    /** The confirmation after the read: the session's shard may have given the unit away before it. */
    public static final class After extends ReadGuard {
        private static final long serialVersionUID = 1L;
    }
}
