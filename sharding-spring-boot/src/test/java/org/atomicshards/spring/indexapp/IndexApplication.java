package org.atomicshards.spring.indexapp;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** A sharded application whose unit has indexes: the auto-configuration finds the entity and repository here. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class IndexApplication {

    @Bean
    SimpleMeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }
}
