package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class SoakSplitTest extends SoakSplitContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }
}
