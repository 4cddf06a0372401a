package org.atomicshards.hibernate.internal.replica;

/** What a sharded factory's connection provider unwraps to for its replica reads (the fan-out's way in). */
public interface ReplicaHolder {

    /** The factory's replica reads; null before it has started. */
    ReplicaReads replicaReads();
}
