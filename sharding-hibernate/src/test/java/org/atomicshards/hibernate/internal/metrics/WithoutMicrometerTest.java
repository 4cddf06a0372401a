package org.atomicshards.hibernate.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardingSettings;
import org.junit.jupiter.api.Test;

/**
 * The metrics classes in a class loader where Micrometer does not exist: no registry gives the no-op metrics and
 * nothing of Micrometer is loaded; a registry setting fails with a message naming the setting.
 */
class WithoutMicrometerTest {

    @Test
    void withoutARegistryTheNoOpMetricsNeedNoMicrometer() throws Exception {
        try (URLClassLoader loader = withoutMicrometer()) {
            Class<?> metricsType = loader.loadClass(ShardMetrics.class.getName());
            assertThat(metricsType.getClassLoader()).isSameAs(loader); // not the test's own copy

            Object none = from(metricsType, Map.of());

            assertThat(none).isSameAs(metricsType.getField("NONE").get(null));
            assertThat(metricsType.getMethod("enabled").invoke(none)).isEqualTo(false);
            assertThatThrownBy(() -> loader.loadClass("io.micrometer.core.instrument.MeterRegistry"))
                    .isInstanceOf(ClassNotFoundException.class);
        }
    }

    @Test
    void aRegistrySettingWithoutMicrometerNamesTheSettingAndTheFix() throws Exception {
        try (URLClassLoader loader = withoutMicrometer()) {
            Class<?> metricsType = loader.loadClass(ShardMetrics.class.getName());

            assertThatThrownBy(() -> from(metricsType, Map.of(ShardingSettings.METER_REGISTRY, new Object())))
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining(ShardingSettings.METER_REGISTRY)
                    .hasMessageContaining("Micrometer (io.micrometer:micrometer-core) is not on the class path");
        }
    }

    @Test
    void withMicrometerPresentTheRegistryIsUsed() {
        ShardMetrics metrics = ShardMetrics.from(Map.of(ShardingSettings.METER_REGISTRY, new SimpleMeterRegistry()));
        assertThat(metrics.enabled()).isTrue();
        assertThat(ShardMetrics.from(Map.of())).isSameAs(ShardMetrics.NONE);
    }

    private static Object from(Class<?> metricsType, Map<String, Object> settings) throws Exception {
        Method from = metricsType.getMethod("from", Map.class);
        try {
            return from.invoke(null, settings);
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
    }

    /**
     * Loads this package's classes afresh from the main classes directory, over a parent that refuses Micrometer (the
     * rest of the library and Hibernate come from the test's class path).
     */
    private static URLClassLoader withoutMicrometer() {
        URL classes = ShardMetrics.class.getProtectionDomain().getCodeSource().getLocation();
        String own = ShardMetrics.class.getPackageName() + ".";
        ClassLoader hiding = new ClassLoader(WithoutMicrometerTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (name.startsWith("io.micrometer.") || name.startsWith(own)) {
                    throw new ClassNotFoundException(name);
                }
                return super.loadClass(name, resolve);
            }
        };
        return new URLClassLoader(new URL[] {classes}, hiding);
    }
}
