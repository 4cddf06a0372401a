package org.atomicshards.benchmarks.unitofwork;

import org.atomicshards.benchmarks.support.Backend;

/**
 * A diagnostic baseline: {@link PlainHibernateSide} in a JVM that has also booted an Atomic Shards factory
 * ({@link AtomicShardsSide}, its catalog and shards loaded) and never runs a unit of work through it. Against
 * {@link PlainHibernateSide} alone, it measures what the library's presence in the JVM costs plain Hibernate's unit of
 * work, apart from any work the library does for it.
 */
final class PlainBesideLibrarySide implements UnitOfWorkSide {

    private final AtomicShardsSide idleLibrary;
    private final PlainHibernateSide plain;

    PlainBesideLibrarySide(Backend backend) {
        idleLibrary = new AtomicShardsSide(backend);
        try {
            plain = new PlainHibernateSide(backend);
        } catch (RuntimeException e) {
            idleLibrary.close();
            throw e;
        }
    }

    AtomicShardsSide idleLibrary() {
        return idleLibrary;
    }

    PlainHibernateSide plain() {
        return plain;
    }

    @Override
    public int placeOrder(OrderRequest request) {
        return plain.placeOrder(request);
    }

    @Override
    public void close() {
        try {
            plain.close();
        } finally {
            idleLibrary.close();
        }
    }
}
