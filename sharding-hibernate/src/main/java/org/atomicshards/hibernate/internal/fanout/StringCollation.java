package org.atomicshards.hibernate.internal.fanout;

import java.util.Locale;
import java.util.Set;

/**
 * How one shard's database compares strings by default, and whether the merge reproduces it.
 *
 * @param name     the collation as the database names it (for ICU, {@code icu:<locale>})
 * @param order    the binary order the collation sorts by, which the merge then uses; null for a linguistic
 *                 collation, whose order the merge does not reproduce
 * @param equality which strings the collation treats as equal
 */
record StringCollation(String name, BinaryStringOrder order, Equality equality) {

    /** Which strings a collation treats as equal. */
    enum Equality {
        /** Only strings with the same characters (deterministic collations, including linguistic ones). */
        EXACT,
        /** Strings that differ only in trailing spaces, too (SQL PAD SPACE, e.g. MariaDB {@code utf8mb4_bin}). */
        PAD_SPACE,
        /** Strings with different characters, e.g. case- or accent-insensitive: the merge cannot group them. */
        LINGUISTIC
    }

    /** MariaDB/MySQL character sets whose {@code _bin} collation compares by code point. */
    private static final Set<String> CODE_POINT_CHARSETS = Set.of("utf8mb4", "utf8mb3", "utf8", "ascii");

    /** Whether the collation orders strings by a binary order the merge reproduces. */
    boolean binaryOrder() {
        return order != null;
    }

    /** Whether the merge can group and de-duplicate strings as this collation does (exactly or pad-space). */
    boolean mergeableEquality() {
        return equality != Equality.LINGUISTIC;
    }

    /** A PostgreSQL database's collation from {@code pg_database} (provider {@code c}, {@code i} or {@code b}). */
    static StringCollation postgres(String libcCollate, String provider, String providerLocale) {
        if ("i".equals(provider)) {
            // ICU collations are linguistic; a database default is always deterministic (equality is exact).
            return new StringCollation("icu:" + providerLocale, null, Equality.EXACT);
        }
        if ("b".equals(provider)) {
            boolean codePoint = "C".equals(providerLocale) || "C.UTF-8".equalsIgnoreCase(providerLocale);
            return new StringCollation("builtin:" + providerLocale, codePoint ? BinaryStringOrder.CODE_POINT : null,
                    Equality.EXACT);
        }
        // libc C/POSIX compare with strcmp (bytes, so code points in UTF-8); C.UTF-8 sorts by code point too.
        return new StringCollation(libcCollate, isPosixC(libcCollate) ? BinaryStringOrder.CODE_POINT : null,
                Equality.EXACT);
    }

    private static boolean isPosixC(String collate) {
        return collate != null && (collate.equals("C") || collate.equals("POSIX") || collate.startsWith("C."));
    }

    /**
     * A MariaDB/MySQL collation, e.g. {@code utf8mb4_general_ci} (linguistic), {@code utf8mb4_bin} (code points,
     * PAD SPACE) or {@code utf8mb4_nopad_bin} (code points, NO PAD).
     *
     * @param padSpace the collation's PAD_ATTRIBUTE where the server reports it, otherwise null (then derived from
     *                 the name: MariaDB's NO PAD collations say {@code nopad}, MySQL's UCA 9.0.0 ones {@code 0900})
     */
    static StringCollation mariaDb(String collation, Boolean padSpace) {
        String lower = collation == null ? "" : collation.toLowerCase(Locale.ROOT);
        if (lower.equals("binary")) {
            return new StringCollation(collation, BinaryStringOrder.CODE_POINT, Equality.EXACT);
        }
        boolean pad = padSpace != null ? padSpace : !(lower.contains("_nopad_") || lower.contains("_0900_"));
        boolean binary = lower.endsWith("_bin") && CODE_POINT_CHARSETS.contains(lower.substring(0, lower.indexOf('_')));
        if (!binary) {
            return new StringCollation(collation, null, Equality.LINGUISTIC);
        }
        return pad ? new StringCollation(collation, BinaryStringOrder.CODE_POINT_PAD_SPACE, Equality.PAD_SPACE)
                : new StringCollation(collation, BinaryStringOrder.CODE_POINT, Equality.EXACT);
    }

    /** A MariaDB/MySQL collation whose pad attribute is derived from its name. */
    static StringCollation mariaDb(String collation) {
        return mariaDb(collation, null);
    }

    /** An H2 database's {@code COLLATION} setting: absent or {@code OFF} means binary comparison. */
    static StringCollation h2(String setting) {
        if (setting == null || setting.isBlank() || setting.equalsIgnoreCase("OFF")) {
            return new StringCollation("OFF (binary)", BinaryStringOrder.UTF16, Equality.EXACT);
        }
        return new StringCollation(setting, null, Equality.LINGUISTIC);
    }

    /** A database whose collation Atomic Shards cannot read: assumed not to be reproducible. */
    static StringCollation unknown(String product) {
        return new StringCollation("unknown (" + product + ")", null, Equality.LINGUISTIC);
    }
}
