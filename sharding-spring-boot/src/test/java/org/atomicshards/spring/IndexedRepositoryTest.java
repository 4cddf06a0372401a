package org.atomicshards.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.atomicshards.hibernate.DuplicateIndexValueException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.spring.indexapp.IndexApplication;
import org.atomicshards.spring.indexapp.Member;
import org.atomicshards.spring.indexapp.MemberRepository;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Spring Data derived queries on indexed attributes ({@code findByEmail}, {@code existsByEmail}, {@code ...In},
 * ordered and counted) ask only the shards the index names, and a repository save of a duplicate unique value fails
 * before anything commits. Four H2 shards.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IndexedRepositoryTest {

    private ConfigurableApplicationContext context;

    @BeforeAll
    void start() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<String> args = new java.util.ArrayList<>(List.of("--spring.main.banner-mode=off",
                "--atomicshards.catalog.url=jdbc:h2:mem:ix_catalog_" + run + ";DB_CLOSE_DELAY=-1",
                "--atomicshards.virtual-shards=64", "--atomicshards.schema-action=create-drop"));
        for (int i = 0; i < 4; i++) {
            args.add("--atomicshards.shards[" + i + "].id=s" + i);
            args.add("--atomicshards.shards[" + i + "].url=jdbc:h2:mem:ix_s" + i + "_" + run + ";DB_CLOSE_DELAY=-1");
        }
        context = new SpringApplicationBuilder(IndexApplication.class).run(args.toArray(String[]::new));
        for (long id = 1; id <= 24; id++) {
            members().save(new Member(id, "m" + id + "@example.com", id % 6 == 0 ? "Bergen" : "Oslo"));
        }
    }

    @AfterAll
    void stop() {
        context.close();
    }

    private MemberRepository members() {
        return context.getBean(MemberRepository.class);
    }

    private ShardedSessionFactory shards() {
        return context.getBean(ShardedSessionFactory.class);
    }

    /** Shard queries run by fan-outs so far, by shard. */
    private Map<String, Long> shardQueries() {
        Map<String, Long> counts = new HashMap<>();
        for (Timer timer : context.getBean(MeterRegistry.class).find("atomicshards.fanout.shard").timers()) {
            counts.merge(timer.getId().getTag("shard"), timer.count(), Long::sum);
        }
        return counts;
    }

    private Map<String, Long> askedSince(Map<String, Long> before) {
        Map<String, Long> asked = new HashMap<>();
        shardQueries().forEach((shard, count) -> {
            long more = count - before.getOrDefault(shard, 0L);
            if (more > 0) {
                asked.put(shard, more);
            }
        });
        return asked;
    }

    private String shardOf(long id) {
        return shards().shardFor(Member.class, id).orElseThrow().name();
    }

    @Test
    void findByAUniqueValueAsksTheOneShardOfItsUnit() {
        Map<String, Long> before = shardQueries();

        assertThat(members().findByEmail("m7@example.com")).get().extracting(Member::getId).isEqualTo(7L);

        assertThat(askedSince(before)).isEqualTo(Map.of(shardOf(7), 1L));
    }

    @Test
    void existsAndInAskOnlyTheShardsOfTheUnitsNamed() {
        Map<String, Long> before = shardQueries();
        assertThat(members().existsByEmail("nobody@example.com")).isFalse();
        assertThat(askedSince(before).values().stream().mapToLong(Long::longValue).sum())
                .as("a value no unit holds: one shard answers").isEqualTo(1);

        before = shardQueries();
        assertThat(members().findByEmailIn(List.of("m3@example.com", "m4@example.com")))
                .extracting(Member::getId).containsExactlyInAnyOrder(3L, 4L);
        assertThat(askedSince(before).keySet()).isEqualTo(new java.util.HashSet<>(List.of(shardOf(3), shardOf(4))));
    }

    @Test
    void orderedAndCountedQueriesOnANonUniqueIndexEqualOneDatabasesAnswer() {
        assertThat(members().findByCityOrderByIdDesc("Bergen")).extracting(Member::getId)
                .containsExactly(24L, 18L, 12L, 6L);
        assertThat(members().countByCity("Bergen")).isEqualTo(4);
        assertThat(members().countByCity("Oslo")).isEqualTo(20);
    }

    @Test
    void savingADuplicateUniqueValueFailsAndCommitsNothing() {
        assertThatThrownBy(() -> members().save(new Member(100L, "m1@example.com", "Oslo")))
                .hasRootCauseInstanceOf(DuplicateIndexValueException.class);
        assertThat(members().findById(100L)).isEmpty();
        assertThat(shards().shards()).extracting(ShardId::name).hasSize(4);
    }
}
