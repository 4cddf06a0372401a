package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;

/** {@link IgnoreCaseOrderContract} on H2 (binary comparison, UTF-16 code units). */
class IgnoreCaseOrderH2Test extends IgnoreCaseOrderContract {

    @Override
    DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    @Override
    String createOptions() {
        return "";
    }
}
