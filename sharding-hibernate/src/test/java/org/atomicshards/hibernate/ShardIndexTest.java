package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class ShardIndexTest extends ShardIndexContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
