package org.atomicshards.hibernate.internal.fanout;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import jakarta.persistence.Tuple;

/**
 * Normalizes query results for comparison with the oracle: entities become their type and id, numbers their Java
 * type and value (so that a result of another type than one database's is a mismatch), decimals lose trailing
 * zeros, floating-point values are rounded to 10 significant digits (a sum of doubles depends on the order of
 * addition), tuples/arrays/records become lists.
 */
final class Rows {

    private Rows() {
    }

    static List<Object> normalize(List<?> rows) {
        List<Object> result = new ArrayList<>(rows.size());
        for (Object row : rows) {
            result.add(value(row));
        }
        return result;
    }

    static Object value(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Object[] array) {
            return normalize(Arrays.asList(array));
        }
        if (value instanceof Tuple tuple) {
            return normalize(Arrays.asList(tuple.toArray()));
        }
        if (value instanceof List<?> list) {
            return normalize(list);
        }
        if (value instanceof Map<?, ?> map) {
            return normalize(new ArrayList<>(map.values()));
        }
        if (value instanceof CategoryTotal dto) {
            return List.of("CategoryTotal", String.valueOf(dto.category()), String.valueOf(dto.total()));
        }
        if (value instanceof Account account) {
            return "Account#" + account.getId();
        }
        if (value instanceof Purchase purchase) {
            // with its loaded state, so that an entity loaded wrongly (not only a wrong entity) is a mismatch
            return "Purchase#" + purchase.getId() + Arrays.asList(value(purchase.getAccountId()),
                    value(purchase.getAmount()), purchase.getCategory(), purchase.getQuantity(),
                    value(purchase.getPrice()));
        }
        if (value instanceof Country country) {
            return "Country#" + country.getCode();
        }
        if (value instanceof BigDecimal decimal) {
            return "BigDecimal:" + (decimal.signum() == 0 ? "0" : decimal.stripTrailingZeros().toPlainString());
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return value.getClass().getSimpleName() + ":"
                    + new BigDecimal(d).round(new MathContext(10)).stripTrailingZeros().toPlainString();
        }
        if (value instanceof Enum<?> constant) {
            return constant.getDeclaringClass().getSimpleName() + "." + constant.name();
        }
        if (value instanceof Number number) {
            return number.getClass().getSimpleName() + ":" + number;
        }
        return value;
    }

    /**
     * The rows with every string's trailing spaces removed: where a PAD SPACE collation groups {@code 'a'} with
     * {@code 'a '}, which of them a database returns for the group (or as MIN, MAX or a DISTINCT value) is not
     * defined, so only the value without trailing spaces can be compared.
     */
    static List<Object> withoutTrailingSpaces(List<Object> rows) {
        List<Object> result = new ArrayList<>(rows.size());
        for (Object row : rows) {
            result.add(withoutTrailingSpaces(row));
        }
        return result;
    }

    private static Object withoutTrailingSpaces(Object value) {
        if (value instanceof List<?> list) {
            List<Object> result = new ArrayList<>(list.size());
            for (Object element : list) {
                result.add(withoutTrailingSpaces(element));
            }
            return result;
        }
        return value instanceof String text ? BinaryStringOrder.stripTrailingSpaces(text) : value;
    }

    /** The rows sorted by their string form: a multiset comparison. */
    static List<Object> sorted(List<Object> rows) {
        List<Object> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(String::valueOf));
        return copy;
    }
}
