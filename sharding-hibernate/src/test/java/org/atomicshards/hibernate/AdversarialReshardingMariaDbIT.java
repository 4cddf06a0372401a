package org.atomicshards.hibernate;

import java.time.Duration;

import org.atomicshards.testing.DatabaseKind;

class AdversarialReshardingMariaDbIT extends AdversarialReshardingContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }

    @Override
    protected Duration pausedLease() {
        return Duration.ofMillis(2_000);
    }
}
