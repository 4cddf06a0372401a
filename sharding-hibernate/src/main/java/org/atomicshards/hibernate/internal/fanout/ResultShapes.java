package org.atomicshards.hibernate.internal.fanout;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.persistence.TupleElement;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;

/** The result shapes a query's selection can have. */
final class ResultShapes {

    private ResultShapes() {
    }

    /** One selected value: the value itself, taken from a merged row without copying it into an array first. */
    private static final ResultShape SINGLE = new ResultShape() {
        @Override
        public Object build(Object[] visibleValues) {
            return visibleValues[0];
        }

        @Override
        public Object build(Object[] items, int[] visible) {
            return items[visible[0]];
        }
    };

    static ResultShape single() {
        return SINGLE;
    }

    static ResultShape array() {
        return values -> values;
    }

    static ResultShape typedArray(Class<?> componentType) {
        return values -> {
            Object[] array = (Object[]) java.lang.reflect.Array.newInstance(componentType, values.length);
            System.arraycopy(values, 0, array, 0, values.length);
            return array;
        };
    }

    static ResultShape tuple(List<TupleElement<?>> elements) {
        List<TupleElement<?>> copy = List.copyOf(elements);
        return values -> new MergedTuple(copy, values);
    }

    static ResultShape list() {
        return values -> Arrays.asList(values.clone());
    }

    static ResultShape map(List<String> aliases) {
        return values -> {
            Map<String, Object> map = new LinkedHashMap<>();
            for (int i = 0; i < values.length; i++) {
                map.put(aliases.get(i), values[i]);
            }
            return map;
        };
    }

    /** {@code select new Dto(a, b)}: the public constructor whose parameters accept the values. */
    static ResultShape constructor(Class<?> type, List<Class<?>> argumentTypes) {
        Constructor<?> constructor = findConstructor(type, argumentTypes);
        return values -> {
            try {
                return constructor.newInstance(values);
            }
            catch (InstantiationException | IllegalAccessException e) {
                throw new IllegalStateException("Cannot instantiate " + type.getName(), e);
            }
            catch (InvocationTargetException e) {
                throw new IllegalStateException("The constructor of " + type.getName() + " failed", e.getCause());
            }
        };
    }

    private static Constructor<?> findConstructor(Class<?> type, List<Class<?>> argumentTypes) {
        for (Constructor<?> candidate : type.getDeclaredConstructors()) {
            Class<?>[] parameters = candidate.getParameterTypes();
            if (parameters.length != argumentTypes.size()) {
                continue;
            }
            boolean fits = true;
            for (int i = 0; i < parameters.length && fits; i++) {
                Class<?> argument = argumentTypes.get(i);
                fits = argument == null || wrap(parameters[i]).isAssignableFrom(wrap(argument));
            }
            if (fits) {
                if (!Modifier.isPublic(candidate.getModifiers()) || !Modifier.isPublic(type.getModifiers())) {
                    candidate.setAccessible(true);
                }
                return candidate;
            }
        }
        throw new UnsupportedFanOutQueryException("instantiation of " + type.getName(),
                "It has no constructor taking " + argumentTypes + "; add one (the same constructor Hibernate"
                        + " would call for 'select new').");
    }

    private static Class<?> wrap(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return java.lang.invoke.MethodType.methodType(type).wrap().returnType();
    }
}
