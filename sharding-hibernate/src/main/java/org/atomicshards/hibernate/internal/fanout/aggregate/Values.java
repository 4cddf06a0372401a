package org.atomicshards.hibernate.internal.fanout.aggregate;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Comparator;

/**
 * Comparison and arithmetic on the values shards return, the way a database compares and adds them: numbers by
 * value across Java types, strings by the configured collation, everything else by its natural order.
 */
public final class Values {

    private final Comparator<String> stringOrder;

    public Values(Comparator<String> stringOrder) {
        this.stringOrder = stringOrder;
    }

    /** Compares two non-null values of one column; enums by name when the database stores their names. */
    public int compare(Object left, Object right, boolean enumByName) {
        if (enumByName && left instanceof Enum<?> l && right instanceof Enum<?> r) {
            return stringOrder.compare(l.name(), r.name());
        }
        return compare(left, right);
    }

    /** Compares two non-null values of one column. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public int compare(Object left, Object right) {
        if (left instanceof String l && right instanceof String r) {
            return stringOrder.compare(l, r);
        }
        if (left instanceof java.util.UUID l && right instanceof java.util.UUID r) {
            // Databases compare UUIDs as unsigned bytes; UUID.compareTo compares signed longs.
            int high = Long.compareUnsigned(l.getMostSignificantBits(), r.getMostSignificantBits());
            return high != 0 ? high : Long.compareUnsigned(l.getLeastSignificantBits(), r.getLeastSignificantBits());
        }
        if (left instanceof byte[] l && right instanceof byte[] r) {
            return java.util.Arrays.compareUnsigned(l, r);
        }
        if (left instanceof Number l && right instanceof Number r && left.getClass() != right.getClass()) {
            return toBigDecimal(l).compareTo(toBigDecimal(r));
        }
        if (left instanceof Comparable comparable) {
            return comparable.compareTo(right);
        }
        throw new IllegalStateException("Values of type " + left.getClass().getName() + " cannot be ordered");
    }

    /** SQL equality of two non-null values (numbers by value: 2 = 2.0). */
    public boolean equal(Object left, Object right) {
        if (left instanceof Number l && right instanceof Number r) {
            return toBigDecimal(l).compareTo(toBigDecimal(r)) == 0;
        }
        if (left instanceof String && right instanceof String) {
            return stringOrder.compare((String) left, (String) right) == 0;
        }
        return left.equals(right);
    }

    public static BigDecimal toBigDecimal(Number number) {
        if (number instanceof BigDecimal decimal) {
            return decimal;
        }
        if (number instanceof BigInteger integer) {
            return new BigDecimal(integer);
        }
        if (number instanceof Double || number instanceof Float) {
            return BigDecimal.valueOf(number.doubleValue());
        }
        return BigDecimal.valueOf(number.longValue());
    }

    /**
     * The sum of two partial sums of one column (same Java type), ignoring nulls as SQL SUM does.
     *
     * @throws ArithmeticException if the sum of two Integers or Shorts is out of their range (one database could not
     *                             return it in that type either)
     */
    public static Object add(Object left, Object right) {
        if (left == null) {
            return right;
        }
        if (right == null) {
            return left;
        }
        if (left instanceof Long l) {
            return Math.addExact(l, ((Number) right).longValue());
        }
        if (left instanceof Integer l) {
            return Math.addExact(l, ((Number) right).intValue());
        }
        if (left instanceof BigDecimal l) {
            return l.add(toBigDecimal((Number) right));
        }
        if (left instanceof BigInteger l) {
            return l.add(right instanceof BigInteger r ? r : BigInteger.valueOf(((Number) right).longValue()));
        }
        if (left instanceof Double l) {
            return l + ((Number) right).doubleValue();
        }
        if (left instanceof Float l) {
            return l + ((Number) right).floatValue();
        }
        if (left instanceof Short l) {
            int sum = l + ((Number) right).shortValue();
            if (sum != (short) sum) {
                throw new ArithmeticException("short overflow");
            }
            return (short) sum;
        }
        throw new IllegalStateException("SUM of " + left.getClass().getName() + " cannot be merged");
    }

    /** A number converted to the Java type the database's aggregate would have returned. */
    public static Object asType(Number value, Class<?> type) {
        if (value == null || type == null || type.isInstance(value)) {
            return value;
        }
        if (type == Long.class || type == long.class) {
            return value.longValue();
        }
        if (type == Integer.class || type == int.class) {
            return value.intValue();
        }
        if (type == Double.class || type == double.class) {
            return value.doubleValue();
        }
        if (type == Float.class || type == float.class) {
            return value.floatValue();
        }
        if (type == BigDecimal.class) {
            return toBigDecimal(value);
        }
        if (type == BigInteger.class) {
            return toBigDecimal(value).toBigInteger();
        }
        if (type == Short.class || type == short.class) {
            return value.shortValue();
        }
        if (type == Byte.class || type == byte.class) {
            return value.byteValue();
        }
        return value;
    }
}
