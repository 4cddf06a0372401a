package org.atomicshards.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.atomicshards.cli.internal.SettingsFile;
import org.atomicshards.hibernate.FanOutSettings;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.config.SettingsReader;
import org.atomicshards.hibernate.spi.SelectionPolicies;
import org.atomicshards.spring.boot.AtomicShardsProperties;
import org.atomicshards.spring.boot.SpringBootSettings;
import org.atomicshards.spring.boot.health.ShardsHealthProperties;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/configuration.md lists exactly what the code reads, each list taken from the code itself: the runtime's settings
 * (the setting-name constants, the per-shard keys {@link SettingsReader} reads, the options of the built-in policies),
 * the Spring Boot properties (the bound properties classes), and the command-line tool's environment variables (those
 * {@link SettingsFile} looks up). A row's Spring Boot key and variable must also set that row's setting.
 */
class ConfigurationReferenceTest {

    private static final String PAGE_NAME = "docs/configuration.md";
    private static final Path PAGE = Markdown.ROOT.resolve(PAGE_NAME);
    private static final String RUNTIME = "Property";
    private static final String SPRING = "Spring Boot";
    private static final String ENVIRONMENT = "CLI environment";
    private static final Pattern CODE = Pattern.compile("^`([^`]+)`");
    private static final String SHARD = ShardingSettings.SHARD_PREFIX + "<id>.";
    private static final String UNIT = ShardingSettings.UNIT_PREFIX + "<Root>.";
    /** What a map-valued Spring Boot property's keys are called in the page. */
    private static final Map<String, String> MAP_KEYS = Map.of("units", "<Root>", "options", "<option>",
            "properties", "<setting>");

    /** One row of the page's reference tables: a setting and its Spring Boot key and variable, if any. */
    record Row(String setting, String springBoot, String environment) {
    }

    @Test
    void everySettingTheCodeReadsIsInTheReference() {
        assertThat(missing(settingsInCode(), documentedSettings()))
                .as("settings read by the code, missing in " + PAGE_NAME).isEmpty();
    }

    @Test
    void everySettingInTheReferenceIsReadByTheCode() {
        assertThat(missing(documentedSettings(), settingsInCode())).as("settings in " + PAGE_NAME + " that no code reads")
                .isEmpty();
    }

    @Test
    void theSpringBootKeysAreExactlyThePropertiesSpringBootBinds() {
        Set<String> documented = new TreeSet<>();
        rows().stream().map(Row::springBoot).filter(Objects::nonNull).forEach(documented::add);
        documented.addAll(column(table(SPRING), SPRING));
        Set<String> bound = springBootProperties();

        assertThat(missing(bound, documented)).as("Spring Boot properties missing in " + PAGE_NAME).isEmpty();
        assertThat(missing(documented, bound)).as("Spring Boot keys in " + PAGE_NAME + " that Spring Boot does not bind")
                .isEmpty();
    }

    @Test
    void aRowsSpringBootKeySetsItsSetting() {
        Map<String, String> base = Map.of("atomicshards.shards[0].id", "s0",
                "atomicshards.shards[0].url", "jdbc:h2:mem:docs_check");
        Map<String, Object> before = SpringBootSettings.runtimeSettings(base);
        List<String> unmapped = new ArrayList<>();
        for (Row row : rows()) {
            if (row.springBoot() == null) {
                continue;
            }
            String key = concrete(row.springBoot());
            boolean changes = false;
            for (String sample : samples(row.springBoot())) {
                Map<String, String> properties = new LinkedHashMap<>(base);
                properties.put(key, sample);
                if (!Objects.equals(effective(row.setting(), SpringBootSettings.runtimeSettings(properties)),
                        effective(row.setting(), before))) {
                    changes = true;
                    break;
                }
            }
            if (!changes) {
                unmapped.add(row.springBoot() + " does not set " + row.setting());
            }
        }

        assertThat(unmapped).isEmpty();
    }

    @Test
    void theVariablesAreExactlyThoseTheToolReadsAndSetTheirRowsSetting(@TempDir Path directory) throws IOException {
        Path file = Files.writeString(directory.resolve("atomicshards.properties"),
                ShardingSettings.SHARDS + "=s0\n" + ShardingSettings.SHARD_PREFIX + "s0.url=jdbc:h2:mem:docs_check\n");
        RecordingMap<String> asked = new RecordingMap<>();
        SettingsFile.read(file, asked);
        Set<String> read = new TreeSet<>();
        asked.read.forEach(name -> read.add(name.toString().replace("_S0_", "_<ID>_")));

        List<Row> withVariable = rows().stream().filter(row -> row.environment() != null).toList();
        assertThat(withVariable).extracting(Row::environment).containsExactlyInAnyOrderElementsOf(read);
        for (Row row : withVariable) {
            Map<String, Object> settings = SettingsFile.read(file,
                    Map.of(row.environment().replace("<ID>", "S0"), "from-the-environment"));
            assertThat(settings.get(concrete(row.setting()))).as("%s sets %s", row.environment(), row.setting())
                    .isEqualTo("from-the-environment");
        }
    }

    /** The elements of {@code these} that {@code other} lacks. */
    private static Set<String> missing(Set<String> these, Set<String> other) {
        Set<String> missing = new TreeSet<>(these);
        missing.removeAll(other);
        return missing;
    }

    // ---- the page

    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (List<Map<String, String>> table : tables()) {
            if (!table.isEmpty() && table.get(0).containsKey(RUNTIME)) {
                for (Map<String, String> cells : table) {
                    rows.add(new Row(code(cells.get(RUNTIME)), code(cells.get(SPRING)), code(cells.get(ENVIRONMENT))));
                }
            }
        }
        assertThat(rows).as("rows of the reference tables in " + PAGE_NAME).isNotEmpty()
                .allSatisfy(row -> assertThat(row.setting()).as("first column").startsWith("atomicshards."));
        return rows;
    }

    private static Set<String> documentedSettings() {
        Set<String> settings = new TreeSet<>();
        rows().forEach(row -> settings.add(row.setting()));
        return settings;
    }

    /** The tables of the page, each row its cells by column name. */
    static List<List<Map<String, String>>> tables() {
        List<List<Map<String, String>>> tables = new ArrayList<>();
        List<String> header = null;
        List<Map<String, String>> table = null;
        for (String line : Markdown.proseLines(Markdown.read(PAGE))) {
            if (!line.startsWith("|")) {
                header = null;
                continue;
            }
            List<String> cells = cells(line);
            if (header == null) {
                header = cells;
                table = new ArrayList<>();
                tables.add(table);
            } else if (!cells.get(0).matches("-+")) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < header.size() && i < cells.size(); i++) {
                    row.put(header.get(i), cells.get(i));
                }
                table.add(row);
            }
        }
        return tables;
    }

    private static List<Map<String, String>> table(String firstColumn) {
        return tables().stream().filter(table -> !table.isEmpty())
                .filter(table -> table.get(0).keySet().iterator().next().equals(firstColumn)).findFirst()
                .orElseThrow(() -> new AssertionError("no table whose first column is " + firstColumn + " in "
                        + PAGE_NAME));
    }

    private static List<String> column(List<Map<String, String>> table, String name) {
        return table.stream().map(row -> code(row.get(name))).filter(Objects::nonNull).toList();
    }

    private static List<String> cells(String line) {
        String inner = line.strip().replaceAll("^\\|", "").replaceAll("\\|$", "");
        return Arrays.stream(inner.split("(?<!\\\\)\\|", -1)).map(String::strip).toList();
    }

    /** The key a cell starts with in backticks; null for "—" and prose. */
    private static String code(String cell) {
        if (cell == null) {
            return null;
        }
        Matcher code = CODE.matcher(cell);
        return code.find() ? code.group(1) : null;
    }

    // ---- the code

    /** Every setting the runtime reads, in the page's notation ({@code <id>}, {@code <Root>}). */
    static Set<String> settingsInCode() {
        Set<String> settings = new TreeSet<>();
        Set<String> prefixes = new TreeSet<>();
        for (Class<?> type : List.of(ShardingSettings.class, FanOutSettings.class, SettingsReader.class)) {
            for (Field field : type.getFields()) {
                if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                    String value = (String) staticValue(field);
                    if (value.startsWith("atomicshards.")) {
                        (value.endsWith(".") ? prefixes : settings).add(value);
                    }
                }
            }
        }
        settings.addAll(readBySettingsReader());
        unitOptions().forEach(option -> settings.add(UNIT + option));
        for (String prefix : prefixes) {
            assertThat(settings).as("settings under the prefix %s", prefix).anyMatch(key -> key.startsWith(prefix));
        }
        return settings;
    }

    /** The keys {@link SettingsReader} asks for when it reads a configuration of one shard. */
    private static Set<String> readBySettingsReader() {
        RecordingMap<Object> settings = new RecordingMap<>();
        settings.put(ShardingSettings.SHARDS, "s0");
        settings.put(ShardingSettings.SHARD_PREFIX + "s0.url", "jdbc:h2:mem:docs_check");
        settings.put(ShardingSettings.SHARD_PREFIX + "s0" + ShardingSettings.REPLICA_INFIX + "r1.url",
                "jdbc:postgresql://127.0.0.1/docs_check");
        SettingsReader.read(settings);
        Set<String> read = new TreeSet<>();
        for (Object key : settings.read) {
            read.add(key.toString().replace(ShardingSettings.SHARD_PREFIX + "s0.", SHARD)
                    .replace(ShardingSettings.REPLICA_INFIX + "r1.", ShardingSettings.REPLICA_INFIX + "<name>."));
        }
        return read;
    }

    /** The unit settings every policy has, and the options of each built-in policy. */
    private static Set<String> unitOptions() {
        SelectionPolicies builtIn = SelectionPolicies.builtIn();
        ShardConfigurationException unknown = catchThrowableOfType(ShardConfigurationException.class,
                () -> builtIn.policy("Root", Map.of("docs_check", "x"), 1024));
        Matcher common = Pattern.compile("the settings of every policy are \\[([^\\]]+)\\]").matcher(unknown.getMessage());
        assertThat(common.find()).as("the common unit settings named in: %s", unknown.getMessage()).isTrue();
        Set<String> options = new TreeSet<>(Arrays.asList(common.group(1).split(",\\s*")));
        for (String name : builtIn.names()) {
            options.addAll(builtIn.find(name).orElseThrow().options().keySet());
        }
        return options;
    }

    /** Every key Spring Boot binds for the auto-configuration, in the page's notation ({@code [n]}, {@code <Root>}). */
    static Set<String> springBootProperties() {
        Set<String> keys = new TreeSet<>();
        collect("atomicshards", AtomicShardsProperties.class, keys);
        collect("atomicshards.health", ShardsHealthProperties.class, keys);
        return keys;
    }

    private static void collect(String prefix, Class<?> type, Set<String> keys) {
        PropertyDescriptor[] properties;
        try {
            properties = Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors();
        } catch (IntrospectionException e) {
            throw new IllegalStateException(e);
        }
        for (PropertyDescriptor property : properties) {
            String key = prefix + "." + kebab(property.getName());
            Class<?> valueType = property.getPropertyType();
            Type generic = property.getReadMethod().getGenericReturnType();
            if (nested(valueType)) {
                collect(key, valueType, keys);
            } else if (List.class.isAssignableFrom(valueType)) {
                collect(key + "[n]", typeArgument(generic, 0), keys);
            } else if (Map.class.isAssignableFrom(valueType)) {
                String name = MAP_KEYS.get(property.getName());
                assertThat(name).as("how the page names the keys of map property %s", key).isNotNull();
                Class<?> values = typeArgument(generic, 1);
                if (nested(values)) {
                    collect(key + "." + name, values, keys);
                } else {
                    keys.add(key + "." + name);
                }
            } else {
                keys.add(key);
            }
        }
    }

    private static boolean nested(Class<?> type) {
        return type.getEnclosingClass() == AtomicShardsProperties.class && !type.isEnum();
    }

    private static Class<?> typeArgument(Type type, int index) {
        return (Class<?>) ((ParameterizedType) type).getActualTypeArguments()[index];
    }

    private static String kebab(String camelCase) {
        return camelCase.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    // ---- samples for the mapping check

    /** A Spring Boot key of the page with its placeholders filled in. */
    private static String concrete(String key) {
        return key.replace("[n]", "[0]").replace("<Root>", "Customer").replace("<id>", "s0").replace("<name>", "r1");
    }

    /** What the runtime makes of {@code setting} from the settings Spring Boot hands it. */
    private static Object effective(String setting, Map<String, Object> settings) {
        if (setting.startsWith("atomicshards.fanout.")) {
            return FanOutSettings.fromProperties(settings).toString();
        }
        if (setting.equals(SettingsReader.SCHEMA_ACTION)) {
            return settings.get(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION);
        }
        return settings.get(concrete(setting));
    }

    /** Values of the property's type that differ from any default, tried in turn. */
    private static List<String> samples(String springKey) {
        Class<?> type = springType(springKey);
        if (type == Duration.class) {
            return List.of("7s");
        }
        if (type == int.class || type == Integer.class) {
            return List.of("7");
        }
        if (type == boolean.class || type == Boolean.class) {
            return List.of("true", "false");
        }
        if (type.isEnum()) {
            return Arrays.stream(type.getEnumConstants()).map(Object::toString).toList();
        }
        String last = springKey.substring(springKey.lastIndexOf('.') + 1);
        return switch (last) {
            case "url" -> List.of("jdbc:h2:mem:docs_other");
            case "virtual-shard-map" -> List.of("0-1023=s0");
            case "default-shard", "id" -> List.of("s0", "s9");
            case "schema-action", "schema" -> List.of("validate");
            case "policy" -> List.of("range");
            case "ranges" -> List.of("0-9=0");
            default -> List.of("docs-check");
        };
    }

    private static Class<?> springType(String springKey) {
        Class<?> type = AtomicShardsProperties.class;
        String[] parts = springKey.substring("atomicshards.".length()).split("\\.");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].replace("[n]", "");
            if (part.startsWith("<")) {
                continue;
            }
            PropertyDescriptor property = Arrays.stream(descriptors(type))
                    .filter(candidate -> kebab(candidate.getName()).equals(part)).findFirst()
                    .orElseThrow(() -> new AssertionError(springKey + " is not a Spring Boot property"));
            Class<?> valueType = property.getPropertyType();
            Type generic = property.getReadMethod().getGenericReturnType();
            type = List.class.isAssignableFrom(valueType) ? typeArgument(generic, 0)
                    : Map.class.isAssignableFrom(valueType) ? typeArgument(generic, 1) : valueType;
        }
        return type;
    }

    private static PropertyDescriptor[] descriptors(Class<?> type) {
        try {
            return Introspector.getBeanInfo(type, Object.class).getPropertyDescriptors();
        } catch (IntrospectionException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object staticValue(Field field) {
        try {
            return field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A map that records every key it is asked for. */
    static final class RecordingMap<V> extends HashMap<String, V> {

        private static final long serialVersionUID = 1L;

        final Set<Object> read = new java.util.LinkedHashSet<>();

        @Override
        public V get(Object key) {
            read.add(key);
            return super.get(key);
        }
    }
}
