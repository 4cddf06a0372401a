package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;

/** {@link IgnoreCaseOrderContract} on MariaDB databases with the collation {@code utf8mb4_nopad_bin} (code points). */
class IgnoreCaseOrderMariaDbIT extends IgnoreCaseOrderContract {

    @Override
    DatabaseKind kind() {
        return DatabaseKind.MARIADB;
    }

    @Override
    String createOptions() {
        return "character set utf8mb4 collate utf8mb4_nopad_bin";
    }
}
