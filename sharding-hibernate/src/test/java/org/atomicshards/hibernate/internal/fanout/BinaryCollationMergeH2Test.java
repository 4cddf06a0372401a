package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;

/** H2 compares strings by UTF-16 code unit, exactly (NO PAD): the merge must too. */
class BinaryCollationMergeH2Test extends BinaryCollationMergeContract {

    @Override
    DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    @Override
    String createOptions() {
        return "";
    }

    @Override
    boolean codePointOrder() {
        return false;
    }

    @Override
    boolean padSpace() {
        return false;
    }
}
