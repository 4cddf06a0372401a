package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;

/** {@link IgnoreCaseOrderContract} on PostgreSQL databases with the collation {@code C} (code points). */
class IgnoreCaseOrderPostgresIT extends IgnoreCaseOrderContract {

    @Override
    DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }

    @Override
    String createOptions() {
        return FanOutOraclePostgresIT.C_COLLATION;
    }
}
