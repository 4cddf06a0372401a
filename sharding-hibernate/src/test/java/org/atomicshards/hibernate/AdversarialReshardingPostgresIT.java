package org.atomicshards.hibernate;

import java.time.Duration;

import org.atomicshards.testing.DatabaseKind;

class AdversarialReshardingPostgresIT extends AdversarialReshardingContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }

    @Override
    protected Duration pausedLease() {
        return Duration.ofMillis(2_000);
    }
}
