package org.atomicshards.hibernate.spi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

import org.atomicshards.hibernate.Access;
import org.atomicshards.hibernate.Combine;
import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.selection.ConsistentHashSelection;
import org.atomicshards.hibernate.internal.selection.HashSelection;
import org.atomicshards.hibernate.internal.selection.LookupSelection;
import org.atomicshards.hibernate.internal.selection.ModuloSelection;
import org.atomicshards.hibernate.internal.selection.RangeSelection;
import org.atomicshards.hibernate.internal.selection.RoundRobinSelection;
import org.atomicshards.hibernate.internal.selection.SnowflakeSelection;

/**
 * The registry of {@link SelectionPolicy selection policies} by name, and the one place where a unit's policy
 * settings become a {@link Policy}: the settings reader, the builder (which writes settings) and Spring Boot's
 * property validation all call {@link #policy}.
 *
 * <p>A registry holds the built-ins, then the policies found by {@link ServiceLoader} (files
 * {@code META-INF/services/org.atomicshards.hibernate.spi.SelectionPolicy} on the thread's context class loader and
 * on the library's), then those given in the setting {@value ShardingSettings#SELECTION_POLICIES} (instances, or
 * class names with a public no-argument constructor; the builder's {@code selectionPolicy(..)} writes it). A name
 * registered twice by different classes fails. Immutable.
 */
public final class SelectionPolicies {

    /** The name of a policy: lower case letters, digits and {@code _}, starting with a letter. */
    public static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

    /** The unit settings every policy has; all others are the selection policy's options. */
    private static final List<String> COMMON = List.of("policy", "key_generation", "access", "combine");

    private static final List<SelectionPolicy> BUILT_INS = List.of(new HashSelection(), new ModuloSelection(),
            new RangeSelection(), new ConsistentHashSelection(), new LookupSelection(), new RoundRobinSelection(),
            new SnowflakeSelection());

    private final Map<String, SelectionPolicy> byName;

    private SelectionPolicies(Map<String, SelectionPolicy> byName) {
        this.byName = byName;
    }

    /** The built-in policies only. */
    public static SelectionPolicies builtIn() {
        return new SelectionPolicies(Map.of()).with(BUILT_INS, "the built-in policies");
    }

    /** The built-ins and the policies registered through {@link ServiceLoader}. */
    public static SelectionPolicies standard() {
        SelectionPolicies registry = builtIn();
        for (ClassLoader loader : loaders()) {
            List<SelectionPolicy> found = new ArrayList<>();
            try {
                ServiceLoader.load(SelectionPolicy.class, loader).forEach(found::add);
            } catch (ServiceConfigurationError e) {
                throw new ShardConfigurationException("A file META-INF/services/" + SelectionPolicy.class.getName()
                        + " names a selection policy that cannot be loaded: " + e.getMessage() + ". Fix: list classes "
                        + "that implement " + SelectionPolicy.class.getSimpleName()
                        + " and have a public no-argument constructor", e);
            }
            registry = registry.with(found, "META-INF/services/" + SelectionPolicy.class.getName());
        }
        return registry;
    }

    /**
     * The {@linkplain #standard standard} policies and those named in {@code settings}' {@value
     * ShardingSettings#SELECTION_POLICIES}.
     *
     * @throws ShardConfigurationException if a registration is invalid (the message names the setting)
     */
    public static SelectionPolicies from(Map<?, ?> settings) {
        return standard().with(registered(settings.get(ShardingSettings.SELECTION_POLICIES)),
                "setting '" + ShardingSettings.SELECTION_POLICIES + "'");
    }

    /**
     * This registry with {@code policies} added (a policy of a class already registered under its name is skipped).
     *
     * @param origin where the policies come from, for the message of a conflict
     * @throws ShardConfigurationException if a name is invalid or taken by a policy of another class
     */
    public SelectionPolicies with(Collection<? extends SelectionPolicy> policies, String origin) {
        Map<String, SelectionPolicy> all = new LinkedHashMap<>(byName);
        for (SelectionPolicy policy : policies) {
            String name = policy.name();
            if (name == null || !NAME.matcher(name).matches()) {
                throw new ShardConfigurationException("Selection policy " + policy.getClass().getName() + " from "
                        + origin + " has the name '" + name + "'. Fix: name it with lower case letters, digits and "
                        + "'_', starting with a letter (e.g. first_letter)");
            }
            SelectionPolicy existing = all.get(name);
            if (existing != null && existing.getClass() != policy.getClass()) {
                throw new ShardConfigurationException("Selection policy " + policy.getClass().getName() + " from "
                        + origin + " is named '" + name + "', a name " + existing.getClass().getName()
                        + " already has. Fix: give it another name");
            }
            all.putIfAbsent(name, policy);
        }
        return new SelectionPolicies(all);
    }

    /** The registered policy (the prototype, not configured) with this name, in any case, {@code -} for {@code _}. */
    public Optional<SelectionPolicy> find(String name) {
        return Optional.ofNullable(byName.get(normalized(name)));
    }

    /** The registered names: the built-ins first, then the others in registration order. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /**
     * The policy of one unit from its settings: {@code policy} (default {@code hash}), {@code key_generation},
     * {@code access}, {@code combine}, and the selection policy's own options. Validates everything, including that
     * no setting is left that the policy does not understand.
     *
     * @param unit the unit's name as the settings spell it
     * @param unitSettings the unit's settings without the {@code atomicshards.unit.<unit>.} prefix; values are
     *        strings, numbers or enum constants; null values count as absent
     * @param virtualShards the configured virtual shard count
     * @throws ShardConfigurationException naming the setting, its value and the fix
     */
    public Policy policy(String unit, Map<String, ?> unitSettings, int virtualShards) {
        String prefix = ShardingSettings.UNIT_PREFIX + unit + ".";
        Map<String, Object> options = new LinkedHashMap<>(unitSettings);
        Object policyName = options.remove("policy");
        String name = text(policyName) == null ? HashSelection.NAME : text(policyName);
        SelectionPolicy prototype = find(name).orElseThrow(() -> new ShardConfigurationException("Setting '"
                + prefix + "policy' has value '" + policyName + "'. Fix: use one of " + names()));
        KeyGeneration keyGeneration = enumValue(prefix + "key_generation", options.remove("key_generation"),
                KeyGeneration.class);
        Access access = enumValue(prefix + "access", options.remove("access"), Access.class);
        Combine combine = enumValue(prefix + "combine", options.remove("combine"), Combine.class);
        PolicyOptions policyOptions = PolicyOptions.of(unit, prototype.name(), virtualShards, options);
        SelectionPolicy selection = prototype.configure(policyOptions);
        if (selection == null || !selection.name().equals(prototype.name())) {
            throw new IllegalStateException(prototype.getClass().getName() + ".configure returned " + selection
                    + ", not a policy named '" + prototype.name() + "'");
        }
        Optional<String> unknown = policyOptions.unread().stream().findFirst();
        if (unknown.isPresent()) {
            throw new ShardConfigurationException("Setting '" + prefix + unknown.get() + "' is not an option of "
                    + "policy " + prototype.name() + ". Fix: remove it, or choose the policy it belongs to in '"
                    + prefix + "policy' (the settings of every policy are " + COMMON + " plus its own options)");
        }
        Policy policy = Policies.of(selection);
        if (keyGeneration != null) {
            policy = policy.withKeyGeneration(keyGeneration);
        }
        if (access != null) {
            policy = policy.withAccess(access);
        }
        if (combine != null) {
            policy = policy.withCombine(combine);
        }
        boolean snowflakeKeys = selection.defaultKeyGeneration() == KeyGeneration.SNOWFLAKE;
        if (snowflakeKeys != (policy.keyGeneration() == KeyGeneration.SNOWFLAKE)) {
            throw new ShardConfigurationException("Settings '" + prefix + "policy' = '"
                    + prototype.name().toUpperCase(Locale.ROOT) + "' and '" + prefix + "key_generation' = '"
                    + policy.keyGeneration() + "' do not fit: a Snowflake key names its own virtual shard. Fix: use "
                    + "policy=snowflake together with key_generation=snowflake");
        }
        return policy;
    }

    private static String normalized(String name) {
        return name == null ? null : name.trim().toLowerCase(Locale.ROOT).replace('-', '_');
    }

    private static String text(Object value) {
        if (value == null) {
            return null;
        }
        String text = value instanceof Enum<?> e ? e.name() : value.toString();
        return text.isBlank() ? null : text;
    }

    private static <E extends Enum<E>> E enumValue(String setting, Object value, Class<E> type) {
        String text = text(value);
        if (text == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, text.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new ShardConfigurationException("Setting '" + setting + "' has value '" + value
                    + "'. Fix: use one of " + Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT), e);
        }
    }

    private static List<ClassLoader> loaders() {
        List<ClassLoader> loaders = new ArrayList<>();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        if (context != null) {
            loaders.add(context);
        }
        ClassLoader own = SelectionPolicy.class.getClassLoader();
        if (own != null && own != context) {
            loaders.add(own);
        }
        return loaders;
    }

    private static List<SelectionPolicy> registered(Object value) {
        List<SelectionPolicy> policies = new ArrayList<>();
        if (value == null) {
            return policies;
        }
        Collection<?> entries = value instanceof Collection<?> c ? c
                : value instanceof SelectionPolicy p ? List.of(p)
                : Arrays.asList(value.toString().split(","));
        for (Object entry : entries) {
            if (entry instanceof SelectionPolicy policy) {
                policies.add(policy);
            } else if (entry != null && !entry.toString().isBlank()) {
                policies.add(instantiate(entry.toString().trim()));
            }
        }
        return policies;
    }

    private static SelectionPolicy instantiate(String className) {
        String setting = ShardingSettings.SELECTION_POLICIES;
        for (ClassLoader loader : loaders()) {
            Class<?> type;
            try {
                type = Class.forName(className, true, loader);
            } catch (ClassNotFoundException e) {
                continue;
            }
            if (!SelectionPolicy.class.isAssignableFrom(type)) {
                throw new ShardConfigurationException("Setting '" + setting + "' names class " + className
                        + ", which does not implement " + SelectionPolicy.class.getName() + ". Fix: name a selection "
                        + "policy class");
            }
            try {
                return (SelectionPolicy) type.getConstructor().newInstance();
            } catch (ReflectiveOperationException e) {
                throw new ShardConfigurationException("Setting '" + setting + "' names class " + className
                        + ", which cannot be created (" + e + "). Fix: give it a public no-argument constructor", e);
            }
        }
        throw new ShardConfigurationException("Setting '" + setting + "' names class " + className
                + ", which is not on the class path. Fix: check the name, or add the jar that holds it");
    }
}
