package org.atomicshards.hibernate.internal.fanout;

import java.util.Locale;

/**
 * How one shard's database compares strings by default, and whether the merge reproduces it.
 *
 * @param name           the collation as the database names it (for ICU, {@code icu:<locale>})
 * @param binaryOrder    whether it orders strings by their characters' code values, as the merge's default
 *                       {@link java.util.Comparator#naturalOrder()} does
 * @param binaryEquality whether two strings are equal only when their characters are (so that the merge may group
 *                       and de-duplicate strings by {@link String#equals})
 */
record StringCollation(String name, boolean binaryOrder, boolean binaryEquality) {

    /** A PostgreSQL database's collation from {@code pg_database} (provider {@code c}, {@code i} or {@code b}). */
    static StringCollation postgres(String libcCollate, String provider, String providerLocale) {
        if ("i".equals(provider)) {
            // ICU collations are linguistic; a database default is always deterministic (equality is exact).
            return new StringCollation("icu:" + providerLocale, false, true);
        }
        if ("b".equals(provider)) {
            boolean codePoint = "C".equals(providerLocale) || "C.UTF-8".equalsIgnoreCase(providerLocale);
            return new StringCollation("builtin:" + providerLocale, codePoint, true);
        }
        return new StringCollation(libcCollate, isPosixC(libcCollate), true);
    }

    private static boolean isPosixC(String collate) {
        return collate != null && (collate.equals("C") || collate.equals("POSIX") || collate.startsWith("C."));
    }

    /** A MariaDB/MySQL collation, e.g. {@code utf8mb4_general_ci} (not binary) or {@code utf8mb4_bin}. */
    static StringCollation mariaDb(String collation) {
        String lower = collation == null ? "" : collation.toLowerCase(Locale.ROOT);
        boolean binary = lower.endsWith("_bin") || lower.equals("binary");
        return new StringCollation(collation, binary, binary);
    }

    /** An H2 database's {@code COLLATION} setting: absent or {@code OFF} means binary comparison. */
    static StringCollation h2(String setting) {
        if (setting == null || setting.isBlank() || setting.equalsIgnoreCase("OFF")) {
            return new StringCollation("OFF (binary)", true, true);
        }
        return new StringCollation(setting, false, false);
    }

    /** A database whose collation Atomic Shards cannot read: assumed not to be reproducible. */
    static StringCollation unknown(String product) {
        return new StringCollation("unknown (" + product + ")", false, false);
    }
}
