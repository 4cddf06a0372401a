package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;

class IndexedPruningTest extends IndexedPruningContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
