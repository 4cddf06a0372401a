package org.atomicshards.hibernate.internal.index;

import java.lang.invoke.MethodType;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;

import org.atomicshards.hibernate.ShardIndexException;
import org.atomicshards.hibernate.internal.routing.StableHash;

/**
 * How an indexed value is stored: never as itself (it may be personal data), but as the SHA-256 digest of a canonical
 * text ({@code s:} and the string, {@code i:} and the decimal number, {@code u:} and the lower-case UUID), so that a
 * value compares exactly (case and trailing blanks included, on every database and collation), integral numbers of
 * different Java types index alike, and no length limit applies. The digest's first eight bytes pick the entry's
 * virtual shard, so an entry lives wherever its virtual shard lives.
 *
 * <p>Unit keys are stored as text: the decimal number, the string, the UUID.
 */
public final class IndexValues {

    /** The longest unit key text an entry holds (as the catalog's per-unit placements). */
    static final int MAX_KEY_LENGTH = 255;

    private IndexValues() {
    }

    /** The stored digest of {@code value}: 64 lower-case hex digits. */
    public static String digest(Object value) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(canonical(value).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }

    /** The virtual shard of the entry of a value with this digest, among {@code virtualShards}. */
    public static int virtualShard(String digest, int virtualShards) {
        return StableHash.bucket(Long.parseUnsignedLong(digest.substring(0, 16), 16), virtualShards);
    }

    private static String canonical(Object value) {
        if (value instanceof String text) {
            return "s:" + text;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return "i:" + value;
        }
        if (value instanceof UUID uuid) {
            return "u:" + uuid.toString().toLowerCase(Locale.ROOT);
        }
        throw new ShardIndexException("An index holds integral numbers, strings and UUIDs, not a "
                + (value == null ? "null" : value.getClass().getName()));
    }

    /** The stored text of a unit key. */
    static String keyText(Object key, String index) {
        String text = key.toString();
        if (text.length() > MAX_KEY_LENGTH) {
            throw new ShardIndexException("A key of the unit of index " + index + " is " + text.length()
                    + " characters long, more than the " + MAX_KEY_LENGTH + " an index entry holds. Fix: use shorter "
                    + "keys in units with indexes");
        }
        return text;
    }

    /** The unit key of type {@code keyType} a stored text stands for. */
    static Object key(String text, Class<?> keyType) {
        Class<?> type = boxed(keyType);
        if (type == String.class) {
            return text;
        }
        if (type == Long.class) {
            return Long.valueOf(text);
        }
        if (type == Integer.class) {
            return Integer.valueOf(text);
        }
        if (type == Short.class) {
            return Short.valueOf(text);
        }
        if (type == Byte.class) {
            return Byte.valueOf(text);
        }
        if (type == BigInteger.class) {
            return new BigInteger(text);
        }
        if (type == UUID.class) {
            return UUID.fromString(text);
        }
        throw new ShardIndexException("Units keyed by " + keyType.getName() + " cannot have indexes");
    }

    /** {@code type}, or its wrapper class if it is primitive. */
    static Class<?> boxed(Class<?> type) {
        return MethodType.methodType(type).wrap().returnType();
    }
}
