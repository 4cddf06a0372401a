package org.atomicshards.samples.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.atomicshards.model.RoutingMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The runnable sample on its own configuration ({@code application.yml}: four H2 shards), with fresh databases. */
@ExtendWith(OutputCaptureExtension.class)
class ShopApplicationTest {

    /** A WARN or ERROR line of Spring Boot's console log format. */
    private static final Pattern WARNING = Pattern.compile("^\\S+\\s+(WARN|ERROR)\\s");

    @Test
    void theDemoSpreadsCustomersOverTheShardsSearchesAcrossThemAndKeepsUnitsOfWorkToOneShard(CapturedOutput logs) {
        String run = UUID.randomUUID().toString().substring(0, 8);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ShopApplication.class).run(
                "--spring.main.banner-mode=off", "--atomicshards.catalog.url=jdbc:h2:mem:demo_catalog_" + run)) {
            new ShopDemo(context).run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        }
        String output = bytes.toString(StandardCharsets.UTF_8);

        Matcher perShard = Pattern.compile("shard s\\d: (\\d+) customers").matcher(output);
        int shards = 0;
        int customers = 0;
        while (perShard.find()) {
            shards++;
            customers += Integer.parseInt(perShard.group(1));
        }
        assertThat(shards).isEqualTo(4);
        assertThat(customers).isEqualTo(20);
        assertThat(output).contains("largest open orders across all shards (20 in total):")
                .contains("[OPEN, 6000, 2026-09-01]")
                .contains("a unit of work is one shard: Cannot merge Customer");

        // Built with the annotation processor, the sample boots, runs and closes without a single warning: the
        // processor's metadata agrees with the mapped entities (Spring Boot's snake-case column names included).
        assertThat(RoutingMetadata.readAll(getClass().getClassLoader()).unit(Customer.class.getName()))
                .as("the processor's metadata of the sample").isPresent();
        assertThat(logs.getAll().lines().filter(line -> WARNING.matcher(line).find()))
                .as("WARN and ERROR lines logged by the sample").isEmpty();
    }
}
