package org.atomicshards.hibernate.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class ClassTableTest {

    private static final List<Class<?>> CLASSES = List.of(String.class, Integer.class, Long.class, Short.class,
            Byte.class, Double.class, Float.class, Character.class, Boolean.class, Object.class, Number.class,
            CharSequence.class, StringBuilder.class, Thread.class, Runnable.class, Map.class, List.class,
            java.util.ArrayList.class, java.util.HashMap.class, java.util.TreeMap.class, java.util.HashSet.class,
            java.time.Instant.class, java.time.Duration.class, java.math.BigDecimal.class, java.math.BigInteger.class,
            java.util.UUID.class, java.util.Optional.class, java.util.concurrent.ConcurrentHashMap.class,
            java.util.function.Function.class, java.util.function.Supplier.class, int[].class, long[].class,
            String[].class, Object[].class);

    @Test
    void findsEveryClassByIdentityAndNoOther() {
        for (int size = 0; size <= 24; size++) {
            Map<Class<?>, Integer> entries = new LinkedHashMap<>();
            for (int i = 0; i < size; i++) {
                entries.put(CLASSES.get(i), i);
            }

            ClassTable<Integer> table = new ClassTable<>(entries);

            for (int i = 0; i < CLASSES.size(); i++) {
                assertThat(table.get(CLASSES.get(i))).as("%s in a table of %d", CLASSES.get(i), size)
                        .isEqualTo(i < size ? i : null);
            }
        }
    }

    @Test
    void aSubclassIsNotItsSuperclass() {
        ClassTable<String> table = new ClassTable<>(Map.of(Number.class, "number"));

        assertThat(table.get(Number.class)).isEqualTo("number");
        assertThat(table.get(Integer.class)).isNull();
    }
}
