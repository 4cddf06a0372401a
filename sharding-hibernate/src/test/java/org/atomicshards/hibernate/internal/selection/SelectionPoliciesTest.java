package org.atomicshards.hibernate.internal.selection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.atomicshards.hibernate.Access;
import org.atomicshards.hibernate.Combine;
import org.atomicshards.hibernate.KeyGeneration;
import org.atomicshards.hibernate.KeyRange;
import org.atomicshards.hibernate.Policies;
import org.atomicshards.hibernate.Policy;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.custompolicy.FirstLetterSelection;
import org.atomicshards.hibernate.spi.PolicyOptions;
import org.atomicshards.hibernate.spi.SelectionPolicies;
import org.atomicshards.hibernate.spi.SelectionPolicy;
import org.atomicshards.hibernate.spi.UnitTopology;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The registry and the one validation of a unit's policy settings ({@link SelectionPolicies#policy}). */
class SelectionPoliciesTest {

    private static final SelectionPolicies REGISTRY = SelectionPolicies.standard();

    /** The settings the builder writes for {@code policy}, without the unit prefix. */
    private static Map<String, Object> settingsOf(Policy policy) {
        Map<String, Object> settings = new LinkedHashMap<>(policy.selection().options());
        settings.put("policy", policy.selection().name());
        settings.put("key_generation", policy.keyGeneration().name());
        settings.put("access", policy.access().name());
        settings.put("combine", policy.combine().name());
        return settings;
    }

    static Stream<Arguments> builtIns() {
        return Stream.of(Policies.hash(), Policies.modulo(),
                        Policies.range(KeyRange.of(-50, 99, 0), KeyRange.of(100, 199, 7)),
                        Policies.consistentHash(40), Policies.lookup().withCombine(Combine.ALL),
                        Policies.roundRobin(), Policies.snowflake(),
                        Policies.hash().withKeyGeneration(KeyGeneration.SEQUENCE).withAccess(Access.PARALLEL))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("builtIns")
    void aBuiltInPolicyReadsBackFromTheSettingsTheBuilderWrites(Policy policy) {
        assertThat(REGISTRY.policy("Customer", settingsOf(policy), 8)).isEqualTo(policy);
    }

    @Test
    void theBuiltInsComeFirstAndServiceLoaderPoliciesFollow() {
        assertThat(SelectionPolicies.builtIn().names()).containsExactly("hash", "modulo", "range", "consistent_hash",
                "lookup", "round_robin", "snowflake");
        assertThat(REGISTRY.names()).endsWith("key_length");
        assertThat(REGISTRY.find("Round-Robin")).containsInstanceOf(RoundRobinSelection.class);
    }

    @Test
    void defaultsComeFromTheSelection() {
        assertThat(REGISTRY.policy("Customer", Map.of(), 8)).isEqualTo(Policies.hash());
        assertThat(REGISTRY.policy("Customer", Map.of("policy", "round_robin"), 8).access()).isEqualTo(Access.PARALLEL);
        assertThat(REGISTRY.policy("Customer", Map.of("policy", "SNOWFLAKE"), 8).keyGeneration())
                .isEqualTo(KeyGeneration.SNOWFLAKE);
    }

    @Test
    void aUnitWithStateGetsItsOwnInstance() {
        SelectionPolicy first = REGISTRY.policy("A", Map.of("policy", "round_robin"), 8).selection();
        SelectionPolicy second = REGISTRY.policy("B", Map.of("policy", "round_robin"), 8).selection();
        assertThat(first).isNotSameAs(second);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "policy=random | Setting 'atomicshards.unit.Customer.policy' has value 'random'. Fix: use one of [hash, modulo, range, consistent_hash, lookup, round_robin, snowflake, key_length]",
            "policy=range | Setting 'atomicshards.unit.Customer.ranges' is missing; it is required by policy RANGE. Fix: set it, e.g. 0-99=0,100-199=1",
            "policy=range,ranges=0-99=0;50-199=1 | Setting 'atomicshards.unit.Customer.ranges' has value '0-99=0,50-199=1': ranges 0-99=0 and 50-199=1 overlap",
            "policy=range,ranges=0-99=8 | range 0-99=8 names virtual shard 8 but there are only 8 (0-7). Fix: use a virtual shard below 8 or raise atomicshards.virtual_shards",
            "policy=range,ranges=0..99=1 | entry '0..99=1' is invalid",
            "policy=consistent_hash,ring_nodes=0 | Setting 'atomicshards.unit.Customer.ring_nodes' has value '0': it is not a positive whole number. Fix: e.g. 150",
            "policy=hash,ring_nodes=10 | Setting 'atomicshards.unit.Customer.ring_nodes' is not an option of policy hash. Fix: remove it",
            "policy=hash,key_generation=snowflake | Settings 'atomicshards.unit.Customer.policy' = 'HASH' and 'atomicshards.unit.Customer.key_generation' = 'SNOWFLAKE' do not fit",
            "policy=snowflake,key_generation=sequence | Settings 'atomicshards.unit.Customer.policy' = 'SNOWFLAKE' and 'atomicshards.unit.Customer.key_generation' = 'SEQUENCE' do not fit",
            "access=sideways | Setting 'atomicshards.unit.Customer.access' has value 'sideways'. Fix: use one of [sequential, parallel]"})
    void badSettingsFailNamingTheSettingAndTheFix(String settings, String message) {
        Map<String, Object> unit = new LinkedHashMap<>();
        for (String pair : settings.split(",")) {
            int eq = pair.indexOf('=');
            unit.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim().replace(';', ','));
        }
        assertThatThrownBy(() -> REGISTRY.policy("Customer", unit, 8))
                .isInstanceOf(ShardConfigurationException.class)
                .hasMessageContaining(message);
    }

    @Nested
    class Registration {

        @Test
        void classNamesInTheSettingAreRegistered() {
            SelectionPolicies registry = SelectionPolicies.from(
                    Map.of(ShardingSettings.SELECTION_POLICIES, " " + FirstLetterSelection.class.getName() + " "));
            assertThat(registry.find("first_letter")).containsInstanceOf(FirstLetterSelection.class);
            assertThat(registry.policy("Author", Map.of("policy", "first-letter"), 8).selection())
                    .isInstanceOf(FirstLetterSelection.class);
        }

        @Test
        void anUnknownClassFailsNamingTheSetting() {
            assertThatThrownBy(() -> SelectionPolicies.from(Map.of(ShardingSettings.SELECTION_POLICIES, "com.acme.Nope")))
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("Setting 'atomicshards.selection_policies' names class com.acme.Nope, which "
                            + "is not on the class path");
            assertThatThrownBy(() -> SelectionPolicies.from(Map.of(ShardingSettings.SELECTION_POLICIES, "java.lang.String")))
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("which does not implement");
        }

        @Test
        void aNameTakenByAnotherClassOrMalformedIsRefused() {
            assertThatThrownBy(() -> REGISTRY.with(List.of(named("hash")), "a test"))
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("is named 'hash', a name " + HashSelection.class.getName() + " already has");
            assertThatThrownBy(() -> REGISTRY.with(List.of(named("First-Letter")), "a test"))
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("has the name 'First-Letter'. Fix: name it with lower case letters");
        }

        @Test
        void registeringTheSameClassTwiceKeepsTheFirst() {
            FirstLetterSelection first = new FirstLetterSelection();
            SelectionPolicies twice = REGISTRY.with(List.of(first, new FirstLetterSelection()), "a test");
            assertThat(twice.find("first_letter")).containsSame(first);
        }

        private SelectionPolicy named(String name) {
            return new SelectionPolicy() {
                @Override
                public String name() {
                    return name;
                }

                @Override
                public SelectionPolicy configure(PolicyOptions options) {
                    return this;
                }

                @Override
                public int virtualShardOf(Object key, UnitTopology unit) {
                    return 0;
                }
            };
        }
    }
}
