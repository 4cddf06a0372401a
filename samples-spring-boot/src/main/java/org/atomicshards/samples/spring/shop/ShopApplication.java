package org.atomicshards.samples.spring.shop;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** A small shop on Spring Boot, sharded by customer over the shards of {@code application.yml}. */
@SpringBootApplication
public class ShopApplication {

    /** Starts the shop on the shards of {@code application.yml}, runs {@link ShopDemo} and stops. */
    public static void main(String[] args) {
        try (ConfigurableApplicationContext context = SpringApplication.run(ShopApplication.class, args)) {
            new ShopDemo(context).run(System.out);
        }
    }
}
