package org.atomicshards.hibernate.internal.routing;

import java.math.BigInteger;
import java.util.UUID;

import org.atomicshards.hibernate.MissingShardKeyException;
import org.atomicshards.hibernate.UnroutableKeyException;

/** Normalizes shard key values of the supported types (integral numbers, {@code String}, {@code UUID}). */
public final class ShardKeys {

    private ShardKeys() {
    }

    /** Whether {@code type} is a supported integral key type. */
    public static boolean isIntegral(Class<?> type) {
        return type == Long.class || type == long.class || type == Integer.class || type == int.class
                || type == Short.class || type == short.class || type == Byte.class || type == byte.class
                || type == BigInteger.class;
    }

    /** Whether {@code type} can be a shard key. */
    public static boolean isSupported(Class<?> type) {
        return isIntegral(type) || type == String.class || type == UUID.class;
    }

    /**
     * Checks that {@code key} is non-null and of a type compatible with {@code keyType} (any integral number for an
     * integral key type).
     *
     * @throws MissingShardKeyException if {@code key} is null
     * @throws UnroutableKeyException if the key's type does not fit
     */
    public static Object check(Object key, Class<?> keyType, String unitName) {
        if (key == null) {
            throw new MissingShardKeyException("The shard key of unit " + unitName + " is null. Fix: assign the key "
                    + "(the root's @ShardKey value) before routing, or let a key generator assign it");
        }
        boolean fits = isIntegral(keyType) ? isIntegralValue(key) : keyType.isInstance(key);
        if (!fits) {
            throw new UnroutableKeyException("Key '" + key + "' of type " + key.getClass().getName()
                    + " cannot route unit " + unitName + ", whose shard key is a " + keyType.getName()
                    + ". Fix: pass a " + keyType.getSimpleName() + " value");
        }
        return key;
    }

    /** Whether {@code value} is an integral number of a supported type. */
    public static boolean isIntegralValue(Object value) {
        return value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger;
    }

    /** The value of an integral key as a {@code BigInteger}. */
    public static BigInteger toBigInteger(Object key) {
        return key instanceof BigInteger b ? b : BigInteger.valueOf(((Number) key).longValue());
    }

    /** The canonical text of a key, as stored in the directory's placements. */
    public static String text(Object key) {
        return key.toString();
    }
}
