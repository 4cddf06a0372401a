package org.atomicshards.hibernate.custompolicy;

import java.util.Map;

import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.spi.PolicyOptions;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.UnitTopology;

/**
 * A user's selection policy, as a newcomer would write one: a String key goes to virtual shard
 * {@code length % modulus} (option {@code modulus}, at most the virtual shard count; default: that count).
 * Registered through {@code META-INF/services/org.atomicshards.hibernate.spi.SelectionPolicy} in the test resources.
 */
public final class KeyLengthSelection implements SelectionPolicy {

    public static final String MODULUS = "modulus";

    private final int modulus;

    /** The prototype ServiceLoader creates. */
    public KeyLengthSelection() {
        this(0);
    }

    public KeyLengthSelection(int modulus) {
        this.modulus = modulus;
    }

    @Override
    public String name() {
        return "key_length";
    }

    @Override
    public SelectionPolicy configure(PolicyOptions options) {
        int value = options.positiveInt(MODULUS, options.virtualShards());
        if (value > options.virtualShards()) {
            throw options.invalid(MODULUS, "there are only " + options.virtualShards() + " virtual shards, so some "
                    + "lengths would name none. Fix: use at most " + options.virtualShards());
        }
        return new KeyLengthSelection(value);
    }

    @Override
    public Map<String, String> options() {
        return Map.of(MODULUS, String.valueOf(modulus));
    }

    @Override
    public void prepare(UnitTopology unit) {
        if (unit.keyType() != String.class) {
            throw new ShardConfigurationException("Setting '" + unit.setting("policy") + "' has value 'key_length' "
                    + "but unit " + unit.unit().getName() + " has a " + unit.keyType().getSimpleName() + " key. Fix: "
                    + "use key_length only for String keys");
        }
    }

    @Override
    public int virtualShardOf(Object key, UnitTopology unit) {
        return ((String) key).length() % modulus;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyLengthSelection k && k.modulus == modulus;
    }

    @Override
    public int hashCode() {
        return modulus;
    }
}
