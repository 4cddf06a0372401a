package org.atomicshards.hibernate.spi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;

/**
 * The options of one unit's selection policy, as plain key/value settings ({@code atomicshards.unit.<Root>.<option>}
 * without the prefix), given to {@link SelectionPolicy#configure}. The readers trim values and turn errors into a
 * {@link ShardConfigurationException} naming the full setting, its value and the fix. The options a policy reads are
 * remembered, so that a setting no policy understands can be reported.
 *
 * <p>Not thread-safe; one instance per unit and configuration.
 */
public final class PolicyOptions {

    private final String unit;
    private final String policy;
    private final int virtualShards;
    private final Map<String, String> values;
    private final Set<String> read = new LinkedHashSet<>();

    private PolicyOptions(String unit, String policy, int virtualShards, Map<String, String> values) {
        this.unit = unit;
        this.policy = policy;
        this.virtualShards = virtualShards;
        this.values = values;
    }

    /**
     * Options of {@code unit}'s policy {@code policy}.
     *
     * @param unit the unit's name as the settings spell it (the root's simple or fully qualified class name)
     * @param policy the policy's name
     * @param virtualShards the configured virtual shard count
     * @param values option name (e.g. {@code ranges}) to value; null values count as absent
     */
    public static PolicyOptions of(String unit, String policy, int virtualShards, Map<String, ?> values) {
        Map<String, String> copy = new LinkedHashMap<>();
        values.forEach((name, value) -> {
            if (value != null) {
                copy.put(name, value.toString());
            }
        });
        return new PolicyOptions(unit, policy, virtualShards, Collections.unmodifiableMap(copy));
    }

    /** The unit's name as the settings spell it. */
    public String unit() {
        return unit;
    }

    /** The name of the policy being configured. */
    public String policy() {
        return policy;
    }

    /** The configured number of virtual shards (fixed for the catalog's life). */
    public int virtualShards() {
        return virtualShards;
    }

    /** The full setting name of {@code option}, e.g. {@code atomicshards.unit.Customer.ranges}. */
    public String setting(String option) {
        return ShardingSettings.UNIT_PREFIX + unit + "." + option;
    }

    /** The trimmed value of {@code option}, empty when it is absent or blank. */
    public Optional<String> string(String option) {
        read.add(option);
        String value = values.get(option);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /**
     * The trimmed value of a required option.
     *
     * @param example a valid value, shown in the fix
     * @throws ShardConfigurationException if it is absent or blank
     */
    public String required(String option, String example) {
        return string(option).orElseThrow(() -> new ShardConfigurationException("Setting '" + setting(option)
                + "' is missing; it is required by policy " + policy.toUpperCase(Locale.ROOT) + ". Fix: set it, e.g. "
                + example));
    }

    /**
     * A positive whole number, or {@code fallback} when the option is absent.
     *
     * @throws ShardConfigurationException if it is not a positive whole number
     */
    public int positiveInt(String option, int fallback) {
        Optional<String> text = string(option);
        if (text.isEmpty()) {
            return fallback;
        }
        try {
            int value = Integer.parseInt(text.get());
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(option, "it is not a positive whole number. Fix: e.g. " + fallback);
    }

    /**
     * The exception for an invalid option: {@code Setting '<setting>' has value '<value>': <problemAndFix>}.
     *
     * @param problemAndFix what is wrong and how to fix it, e.g. {@code "ranges 0-9=0 and 5-19=1 overlap. Fix: ..."}
     */
    public ShardConfigurationException invalid(String option, String problemAndFix) {
        return new ShardConfigurationException("Setting '" + setting(option) + "' has value '" + values.get(option)
                + "': " + problemAndFix);
    }

    /** The options given but never read, in the order given. */
    public Set<String> unread() {
        Set<String> unread = new LinkedHashSet<>(values.keySet());
        unread.removeAll(read);
        return unread;
    }
}
