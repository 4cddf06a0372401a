package org.atomicshards.cli.internal;

import java.util.Collection;
import java.util.Map;

/**
 * Writes maps, lists, strings, numbers, booleans and nulls as JSON (RFC 8259). Maps keep their iteration order, so
 * a {@code LinkedHashMap} gives a stable output. Non-finite doubles are written as {@code null}.
 */
public final class Json {

    private Json() {
    }

    /** {@code value} as indented JSON text. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.append('\n').toString();
    }

    private static void write(Object value, StringBuilder out, int indent) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Map<?, ?> map) {
            writeMap(map, out, indent);
        } else if (value instanceof Collection<?> list) {
            writeList(list, out, indent);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            out.append(Double.isFinite(d) ? Double.toString(d) : "null");
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else {
            string(value.toString(), out);
        }
    }

    private static void writeMap(Map<?, ?> map, StringBuilder out, int indent) {
        if (map.isEmpty()) {
            out.append("{}");
            return;
        }
        out.append('{');
        String separator = "\n";
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            out.append(separator);
            pad(out, indent + 1);
            string(String.valueOf(entry.getKey()), out);
            out.append(": ");
            write(entry.getValue(), out, indent + 1);
            separator = ",\n";
        }
        out.append('\n');
        pad(out, indent);
        out.append('}');
    }

    private static void writeList(Collection<?> list, StringBuilder out, int indent) {
        if (list.isEmpty()) {
            out.append("[]");
            return;
        }
        boolean simple = list.stream().noneMatch(item -> item instanceof Map || item instanceof Collection);
        if (simple) {
            out.append('[');
            String separator = "";
            for (Object item : list) {
                out.append(separator);
                write(item, out, indent);
                separator = ", ";
            }
            out.append(']');
            return;
        }
        out.append('[');
        String separator = "\n";
        for (Object item : list) {
            out.append(separator);
            pad(out, indent + 1);
            write(item, out, indent + 1);
            separator = ",\n";
        }
        out.append('\n');
        pad(out, indent);
        out.append(']');
    }

    private static void pad(StringBuilder out, int indent) {
        out.append("  ".repeat(indent));
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
