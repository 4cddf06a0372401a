package org.atomicshards.hibernate.internal.routing;

import java.math.BigInteger;
import java.util.UUID;

/**
 * A stable, well-mixed 64-bit hash of a shard key's value. Stable means: the same value gives the same hash in every
 * JVM, release and run (it never uses {@code Object.hashCode}, which may differ between runs for some types and is
 * poorly mixed for others). Integral values hash by numeric value, so {@code 42}, {@code 42L} and
 * {@code BigInteger.valueOf(42)} hash alike.
 *
 * <p>Integral values go through MurmurHash3's 64-bit finalizer; strings and large integers through 64-bit FNV-1a
 * over their UTF-8 / two's-complement bytes followed by the same finalizer; UUIDs mix both halves.
 */
public final class StableHash {

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private StableHash() {
    }

    /**
     * {@code hash} as an unsigned number modulo {@code buckets} ({@link Long#remainderUnsigned}). When {@code buckets}
     * is a power of two (the default virtual shard count is), the remainder is the hash's low bits: the same value,
     * without a 64-bit division (HASH routing runs about a quarter more keys per second without it).
     *
     * @param buckets at least 1
     */
    public static int bucket(long hash, int buckets) {
        if ((buckets & (buckets - 1)) == 0) {
            return (int) (hash & (buckets - 1));
        }
        return (int) Long.remainderUnsigned(hash, buckets);
    }

    /** The hash of a supported key value: an integral number, a {@code String} or a {@code UUID}. */
    public static long of(Object key) {
        if (key instanceof Long || key instanceof Integer || key instanceof Short || key instanceof Byte) {
            return ofLong(((Number) key).longValue());
        }
        if (key instanceof String s) {
            return ofString(s);
        }
        if (key instanceof UUID u) {
            return mix(u.getMostSignificantBits() ^ mix(u.getLeastSignificantBits()));
        }
        if (key instanceof BigInteger b) {
            return b.bitLength() < 64 ? ofLong(b.longValue()) : ofBytes(b.toByteArray());
        }
        throw new IllegalArgumentException("Unsupported shard key type " + key.getClass().getName()
                + ": use an integral number, String or UUID");
    }

    /** The hash of a {@code long} value. */
    public static long ofLong(long value) {
        return mix(value);
    }

    /**
     * The hash of a string: {@link #ofBytes} of its UTF-8 bytes as {@code String.getBytes(UTF_8)} gives them (an
     * unpaired surrogate becomes {@code '?'}), encoded on the fly instead of copied into a new array.
     */
    static long ofString(String s) {
        long h = FNV_OFFSET;
        int length = s.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                h = (h ^ c) * FNV_PRIME;
            } else if (c < 0x800) {
                h = (h ^ (0xC0 | (c >>> 6))) * FNV_PRIME;
                h = (h ^ (0x80 | (c & 0x3F))) * FNV_PRIME;
            } else if (!Character.isSurrogate(c)) {
                h = (h ^ (0xE0 | (c >>> 12))) * FNV_PRIME;
                h = (h ^ (0x80 | ((c >>> 6) & 0x3F))) * FNV_PRIME;
                h = (h ^ (0x80 | (c & 0x3F))) * FNV_PRIME;
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, s.charAt(++i));
                h = (h ^ (0xF0 | (codePoint >>> 18))) * FNV_PRIME;
                h = (h ^ (0x80 | ((codePoint >>> 12) & 0x3F))) * FNV_PRIME;
                h = (h ^ (0x80 | ((codePoint >>> 6) & 0x3F))) * FNV_PRIME;
                h = (h ^ (0x80 | (codePoint & 0x3F))) * FNV_PRIME;
            } else {
                h = (h ^ '?') * FNV_PRIME;
            }
        }
        return mix(h);
    }

    /** The hash of a byte sequence. */
    public static long ofBytes(byte[] bytes) {
        long h = FNV_OFFSET;
        for (byte b : bytes) {
            h ^= b & 0xff;
            h *= FNV_PRIME;
        }
        return mix(h);
    }

    /** MurmurHash3's fmix64: every input bit affects every output bit. */
    static long mix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
