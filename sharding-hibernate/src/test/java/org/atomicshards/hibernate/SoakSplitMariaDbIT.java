package org.atomicshards.hibernate;

import org.atomicshards.testing.DatabaseKind;

class SoakSplitMariaDbIT extends SoakSplitContract {

    @Override
    protected DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }

    /** A binary collation, so that the fan-out may merge ORDER BY on strings (it refuses the default's). */
    @Override
    protected String createOptions() {
        return "character set utf8mb4 collate utf8mb4_nopad_bin";
    }
}
