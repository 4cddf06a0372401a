package org.atomicshards.hibernate.internal.fanout;

import org.atomicshards.testing.DatabaseKind;
import org.junit.jupiter.api.Nested;

/**
 * MariaDB's binary collations compare strings by code point; {@code utf8mb4_bin} is PAD SPACE ({@code 'a' = 'a '}),
 * {@code utf8mb4_nopad_bin} is not. The merge must do as each does.
 */
class BinaryCollationMergeMariaDbIT {

    @Nested
    class PadSpaceBin extends BinaryCollationMergeContract {

        @Override
        DatabaseKind kind() {
            return DatabaseKind.MARIADB;
        }

        @Override
        String createOptions() {
            return "character set utf8mb4 collate utf8mb4_bin";
        }

        @Override
        boolean codePointOrder() {
            return true;
        }

        @Override
        boolean padSpace() {
            return true;
        }
    }

    @Nested
    class NoPadBin extends BinaryCollationMergeContract {

        @Override
        DatabaseKind kind() {
            return DatabaseKind.MARIADB;
        }

        @Override
        String createOptions() {
            return "character set utf8mb4 collate utf8mb4_nopad_bin";
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
}
