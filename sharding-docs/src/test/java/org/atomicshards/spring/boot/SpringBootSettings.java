package org.atomicshards.spring.boot;

import java.util.Map;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** What the auto-configuration hands the runtime for given application properties (for the documentation checks). */
public final class SpringBootSettings {

    private SpringBootSettings() {
    }

    /** Binds {@code properties} as Spring Boot binds {@code atomicshards.*} and maps them as the auto-configuration does. */
    public static Map<String, Object> runtimeSettings(Map<String, String> properties) {
        AtomicShardsProperties bound = new Binder(new MapConfigurationPropertySource(properties))
                .bindOrCreate("atomicshards", AtomicShardsProperties.class);
        return SettingsMapper.toSettings(bound);
    }
}
