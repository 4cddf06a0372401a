package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;

/** PostgreSQL {@code C} compares strings by code point (UTF-8 bytes), exactly: the merge must too. */
class BinaryCollationMergePostgresIT extends BinaryCollationMergeContract {

    @Override
    DatabaseKind kind() {
        return DatabaseKind.POSTGRESQL;
    }

    @Override
    String createOptions() {
        return FanOutOraclePostgresIT.C_COLLATION;
    }

    @Override
    boolean codePointOrder() {
        return true;
    }

    @Override
    boolean padSpace() {
        return false;
    }
}
