package org.atomicshards.hibernate.internal.routing;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import org.atomicshards.hibernate.InvalidShardKeyException;

/**
 * What a {@code String} shard key must satisfy so that every supported database stores it faithfully and finds it
 * again, checked before any SQL runs:
 * <ul>
 *   <li>no NUL character (PostgreSQL refuses it in text; a driver or tool may cut the value at it);</li>
 *   <li>no unpaired UTF-16 surrogate: it is not Unicode and cannot be encoded in UTF-8, so PostgreSQL stores
 *       {@code ?} and a find by the same key misses, and MariaDB refuses or mangles it;</li>
 *   <li>at most {@code maxLength} characters (UTF-16 units, never fewer than the database counts): the shortest key
 *       column of the unit, and for lookup / round-robin units also the catalog's placement key column;</li>
 *   <li>at most {@link #MAX_UTF8_BYTES} bytes in UTF-8, so that a B-tree index entry fits (PostgreSQL allows 2704
 *       bytes per entry, MariaDB's InnoDB 3072) even when a key column is declared very long.</li>
 * </ul>
 * The empty string is a valid key.
 *
 * @param maxLength the most characters a key may have
 * @param origin which column sets {@code maxLength}, for the message (e.g. "column Entry.accountCode holds 400")
 */
public record KeyTextLimit(int maxLength, String origin) {

    /**
     * The length of the catalog's {@code as_placement.unit_key} column, where lookup and round-robin units record
     * their keys (the catalog's DDL; a test checks that the two agree).
     */
    public static final int CATALOG_UNIT_KEY_LENGTH = 255;

    /** The most UTF-8 bytes of a key; below every supported database's index entry limit. */
    public static final int MAX_UTF8_BYTES = 2000;

    /**
     * @throws InvalidShardKeyException naming the limit the key breaks, its position or size, and the fix
     */
    public void validate(String key, String unitName) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '\0') {
                throw invalid(unitName, "contains the NUL character (U+0000) at index " + i + ", which PostgreSQL "
                        + "cannot store in a text column", "remove control characters from keys");
            }
            if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw invalid(unitName, "contains an unpaired UTF-16 surrogate (U+" + Integer.toHexString(c)
                        .toUpperCase(Locale.ROOT) + ") at index " + i + ", which is not Unicode and cannot be "
                        + "encoded in UTF-8: the database would store '?' (or refuse it) and the key would no "
                        + "longer find its rows", "pass well-formed text (check where the key was cut or decoded)");
            }
        }
        if (key.length() > maxLength) {
            throw invalid(unitName, "is " + key.length() + " characters long, but at most " + maxLength + " fit: "
                    + origin, "use shorter keys, or declare every key column of the unit longer "
                    + "(@Column(length = ...))" + (origin.contains("catalog") ? " and use a policy that does not "
                    + "record each key in the catalog (hash, range, consistent hash)" : ""));
        }
        if (key.length() * 3L > MAX_UTF8_BYTES) {
            int bytes = key.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_UTF8_BYTES) {
                throw invalid(unitName, "is " + bytes + " bytes long in UTF-8, but an index entry holds at most "
                        + MAX_UTF8_BYTES + " (PostgreSQL's B-tree allows 2704 bytes, MariaDB's InnoDB 3072)",
                        "use shorter keys, e.g. a hash of the long value");
            }
        }
    }

    private static InvalidShardKeyException invalid(String unitName, String problem, String fix) {
        return new InvalidShardKeyException("The shard key of unit " + unitName + " " + problem
                + ". Nothing was sent to the database. Fix: " + fix);
    }
}
