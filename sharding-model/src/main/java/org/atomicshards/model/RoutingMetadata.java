package org.atomicshards.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.Properties;

/**
 * Reads and writes the routing metadata: the resolved {@link UnitModel} that the annotation processor writes to
 * {@value #RESOURCE} so the runtime needs no class-path scanning.
 *
 * <h2>Format, version 1</h2>
 * A {@link Properties} text file (UTF-8; keys and values escaped as {@code Properties.load} reads them), written
 * in a stable order:
 * <pre>
 * # Atomic Shards routing metadata
 * format=1
 * units=com.acme.Customer,com.acme.Vendor                  # roots, comma-separated (may be empty)
 * unit.com.acme.Customer.key-type=java.lang.Long           # boxed Java type or embeddable class of the key
 * unit.com.acme.Customer.members=com.acme.Customer,com.acme.Order   # every entity of the unit, root first
 * member.com.acme.Customer.key-path=id                     # attribute path of the key, per member
 * member.com.acme.Customer.key-column=id                   # optional: the column as mapped
 * member.com.acme.Order.key-path=customer.id
 * member.com.acme.Order.key-column=customer_id
 * reference-data=com.acme.Country                          # optional, comma-separated
 * </pre>
 * Class names are binary names ({@code Class.getName()}). Readers reject any other {@code format} value; a
 * future version that changes the meaning of a property gets a new number. Properties a reader does not know are
 * ignored, so version 1 may grow optional properties.
 */
public final class RoutingMetadata {

    /** Where the processor writes the metadata, relative to the class output. */
    public static final String RESOURCE = "META-INF/atomic-shards/units.properties";

    /** The format version this class writes and reads. */
    public static final int FORMAT_VERSION = 1;

    private RoutingMetadata() {
    }

    /** Writes {@code model} in format {@value #FORMAT_VERSION}. */
    public static void write(UnitModel model, Writer out) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("# Atomic Shards routing metadata (format " + FORMAT_VERSION + ", see org.atomicshards.model.RoutingMetadata)");
        lines.add(property("format", Integer.toString(FORMAT_VERSION)));
        lines.add(property("units", String.join(",", model.units().stream().map(Unit::root).toList())));
        for (Unit unit : model.units()) {
            lines.add(property("unit." + unit.root() + ".key-type", unit.keyType()));
            lines.add(property("unit." + unit.root() + ".members",
                    String.join(",", unit.members().stream().map(UnitMember::entity).toList())));
            for (UnitMember member : unit.members()) {
                lines.add(property("member." + member.entity() + ".key-path", member.keyPath()));
                member.column().ifPresent(column -> lines.add(property("member." + member.entity() + ".key-column", column)));
            }
        }
        if (!model.referenceData().isEmpty()) {
            lines.add(property("reference-data", String.join(",", model.referenceData())));
        }
        for (String line : lines) {
            out.write(line);
            out.write('\n');
        }
        out.flush();
    }

    /**
     * Reads one metadata resource.
     *
     * @param location names the resource in error messages (a URL or a file name)
     * @throws InvalidRoutingMetadataException if the format version is not {@value #FORMAT_VERSION} or a
     *                                         property is missing or inconsistent
     */
    public static UnitModel read(Reader in, String location) throws IOException {
        Properties properties = new Properties();
        properties.load(in);
        String format = properties.getProperty("format");
        if (!Integer.toString(FORMAT_VERSION).equals(format)) {
            throw new InvalidRoutingMetadataException("Routing metadata " + location + " has format=" + format
                    + ", but this version of Atomic Shards reads format=" + FORMAT_VERSION
                    + ". Rebuild the entities with the sharding-processor of the same Atomic Shards version as the runtime.");
        }
        List<Unit> units = new ArrayList<>();
        for (String root : list(properties, "units", location, true)) {
            String keyType = required(properties, "unit." + root + ".key-type", location);
            List<UnitMember> members = new ArrayList<>();
            for (String entity : list(properties, "unit." + root + ".members", location, true)) {
                members.add(new UnitMember(entity, required(properties, "member." + entity + ".key-path", location),
                        properties.getProperty("member." + entity + ".key-column")));
            }
            units.add(unit(root, keyType, members, location));
        }
        try {
            return UnitModel.of(units, list(properties, "reference-data", location, false));
        } catch (IllegalArgumentException e) {
            throw new InvalidRoutingMetadataException("Routing metadata " + location + " is inconsistent: "
                    + e.getMessage() + ". Rebuild the entities with the sharding-processor.", e);
        }
    }

    /**
     * Reads and merges every {@value #RESOURCE} visible to {@code loader} (one per jar or output directory).
     *
     * @return the merged model; empty when there is no resource
     * @throws InvalidRoutingMetadataException if a resource is invalid or two resources disagree
     * @throws UncheckedIOException            if a resource cannot be read
     */
    public static UnitModel readAll(ClassLoader loader) {
        UnitModel merged = UnitModel.empty();
        try {
            Enumeration<URL> resources = loader.getResources(RESOURCE);
            while (resources.hasMoreElements()) {
                URL url = resources.nextElement();
                UnitModel model;
                try (InputStream stream = url.openStream();
                     Reader reader = new InputStreamReader(stream, StandardCharsets.UTF_8)) {
                    model = read(reader, url.toString());
                }
                try {
                    merged = merged.merge(model);
                } catch (IllegalArgumentException e) {
                    throw new InvalidRoutingMetadataException("Routing metadata " + url + " contradicts another "
                            + RESOURCE + " on the class path: " + e.getMessage()
                            + ". Build all entities of one unit in one module, or remove the stale jar.", e);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + RESOURCE + " resources", e);
        }
        return merged;
    }

    private static Unit unit(String root, String keyType, List<UnitMember> members, String location) {
        try {
            return new Unit(root, keyType, members);
        } catch (IllegalArgumentException e) {
            throw new InvalidRoutingMetadataException("Routing metadata " + location + " property unit." + root
                    + ".members is inconsistent: " + e.getMessage() + ". Rebuild the entities with the sharding-processor.", e);
        }
    }

    private static String required(Properties properties, String key, String location) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new InvalidRoutingMetadataException("Routing metadata " + location + " lacks property " + key
                    + ". Rebuild the entities with the sharding-processor instead of editing the file.");
        }
        return value.trim();
    }

    private static List<String> list(Properties properties, String key, String location, boolean required) {
        String value = required ? properties.getProperty(key) : properties.getProperty(key, "");
        if (value == null) {
            throw new InvalidRoutingMetadataException("Routing metadata " + location + " lacks property " + key
                    + ". Rebuild the entities with the sharding-processor instead of editing the file.");
        }
        return Arrays.stream(value.split(",")).map(String::trim).filter(item -> !item.isEmpty()).toList();
    }

    private static String property(String key, String value) {
        return escape(key, true) + "=" + escape(value, false);
    }

    /** Escapes as {@link Properties#store(Writer, String)} does, so {@link Properties#load(Reader)} reads it back. */
    private static String escape(String text, boolean key) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\f' -> out.append("\\f");
                case '=', ':', '#', '!' -> out.append('\\').append(c);
                case ' ' -> out.append(key || i == 0 ? "\\ " : " ");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}
