package org.atomicshards.spring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.spring.testapp.AccountRepository;
import org.atomicshards.spring.testapp.TestApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The fan-out executor lives and dies with the application context: once the context is closed, no thread that ran
 * a fan-out query of it is alive (an application's {@code main} returns, {@code exec:java} does not wait for them).
 */
class FanOutExecutorLifecycleTest {

    private static final String FAN_OUT_THREAD = "atomic-shards-fanout-";

    @Test
    void closingTheContextStopsEveryFanOutThread() throws InterruptedException {
        Set<Thread> before = fanOutThreads();
        String run = UUID.randomUUID().toString().substring(0, 8);
        Set<Thread> started;
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TestApplication.class).run(
                "--spring.main.banner-mode=off",
                "--atomicshards.shards[0].id=a", "--atomicshards.shards[0].url=jdbc:h2:mem:life_a_" + run + ";DB_CLOSE_DELAY=-1",
                "--atomicshards.shards[1].id=b", "--atomicshards.shards[1].url=jdbc:h2:mem:life_b_" + run + ";DB_CLOSE_DELAY=-1",
                "--atomicshards.shards[2].id=c", "--atomicshards.shards[2].url=jdbc:h2:mem:life_c_" + run + ";DB_CLOSE_DELAY=-1",
                "--atomicshards.catalog.url=jdbc:h2:mem:life_catalog_" + run + ";DB_CLOSE_DELAY=-1",
                "--atomicshards.virtual-shards=64", "--atomicshards.schema-action=create-drop")) {
            assertThat(context.getBean(AccountRepository.class).findAll()).isEmpty();
            assertThat(context.getBean(ShardedSessionFactory.class).fanOut()
                    .createQuery("select count(a) from Account a", Long.class).getSingleResult()).isZero();
            started = fanOutThreads();
            started.removeAll(before);
            assertThat(started).as("threads the fan-outs ran on").isNotEmpty();
        }

        // Idle executor threads would also end by themselves after their keep-alive (30 s): allow far less.
        long deadline = System.nanoTime() + 3_000_000_000L;
        for (Thread thread : started) {
            thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        }
        assertThat(started).as("fan-out threads alive after the context closed")
                .filteredOn(Thread::isAlive).extracting(Thread::getName).isEmpty();
    }

    private static Set<Thread> fanOutThreads() {
        List<Thread> all = List.copyOf(Thread.getAllStackTraces().keySet());
        Set<Thread> fanOut = new HashSet<>();
        for (Thread thread : all) {
            if (thread.getName().startsWith(FAN_OUT_THREAD)) {
                fanOut.add(thread);
            }
        }
        return fanOut;
    }
}
