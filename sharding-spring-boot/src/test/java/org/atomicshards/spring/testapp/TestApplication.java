package org.atomicshards.spring.testapp;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** A minimal sharded application: the auto-configuration finds the entities and repositories of this package. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(Ledger.class)
public class TestApplication {

    @Bean
    SimpleMeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }
}
