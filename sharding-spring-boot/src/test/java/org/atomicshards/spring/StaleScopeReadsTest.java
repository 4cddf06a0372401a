package org.atomicshards.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardMovingException;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.spring.testapp.Account;
import org.atomicshards.spring.testapp.AccountRepository;
import org.atomicshards.spring.testapp.Currency;
import org.atomicshards.spring.testapp.Entry;
import org.atomicshards.spring.testapp.TestApplication;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring application whose map is out of date (another instance moved a unit; this one refreshes every ten minutes):
 * a repository query naming the unit's key, in a scope resolved with the old map, runs on the shard the unit left and is
 * refused as retryable instead of answering without the unit; the retry, resolved with the refreshed map, finds it.
 */
class StaleScopeReadsTest {

    private static final int VIRTUAL_SHARDS = 16;

    private ConfigurableApplicationContext context;
    private ShardedSessionFactory mover;

    @BeforeEach
    void start() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        String a = "jdbc:h2:mem:stale_a_" + run + ";DB_CLOSE_DELAY=-1";
        String b = "jdbc:h2:mem:stale_b_" + run + ";DB_CLOSE_DELAY=-1";
        String catalog = "jdbc:h2:mem:stale_catalog_" + run + ";DB_CLOSE_DELAY=-1";
        context = new SpringApplicationBuilder(TestApplication.class).run("--spring.main.banner-mode=off",
                "--atomicshards.shards[0].id=a", "--atomicshards.shards[0].url=" + a,
                "--atomicshards.shards[1].id=b", "--atomicshards.shards[1].url=" + b,
                "--atomicshards.catalog.url=" + catalog, "--atomicshards.catalog.refresh-interval=10m",
                "--atomicshards.properties[atomicshards.resharding.auto_resume]=false",
                // a write lease held by this instance, which does not refresh, would hold the other's move off
                "--atomicshards.properties[" + ShardingSettings.RESHARDING_CONNECTION_LEASE + "]=false",
                "--atomicshards.virtual-shards=" + VIRTUAL_SHARDS, "--atomicshards.schema-action=create-drop");
        mover = AtomicShards.configure().annotatedClasses(Account.class, Currency.class, Entry.class)
                .shard("a", a).shard("b", b).catalog(catalog).virtualShards(VIRTUAL_SHARDS).schemaAction("none")
                .property(ShardingSettings.RESHARDING_AUTO_RESUME, "false").build();
    }

    @AfterEach
    void stop() {
        mover.close();
        context.close();
    }

    @Test
    void aQueryNamingTheKeyOnTheShardAStaleMapNamesIsRefusedForARetry() {
        ShardedSessionFactory shards = context.getBean(ShardedSessionFactory.class);
        AccountRepository accounts = context.getBean(AccountRepository.class);
        ShardScopes scopes = context.getBean(ShardScopes.class);
        accounts.save(new Account(9L, "owner of 9"));
        ShardId before = shards.shardFor(Account.class, 9L).orElseThrow();
        ShardId after = before.name().equals("a") ? ShardId.of("b") : ShardId.of("a");
        int virtualShard = ((ShardRouterImpl) mover.router()).unitOf(Account.class).placement().virtualShardOf(9L);

        mover.admin().move(Set.of(virtualShard), after, MoveOptions.defaults());
        assertThat(shards.shardFor(Account.class, 9L)).as("this instance's map is out of date").contains(before);

        assertThatThrownBy(() -> scopes.callInUnit(Account.class, 9L,
                () -> accounts.findByIdAndOwner(9L, "owner of 9")))
                .isInstanceOf(ShardMovingException.class).hasMessageContaining("run it again");

        List<Account> found = scopes.callInUnit(Account.class, 9L, () -> accounts.findByIdAndOwner(9L, "owner of 9"));
        assertThat(found).extracting(Account::getId).containsExactly(9L);
        assertThat(shards.shardFor(Account.class, 9L)).as("the refusal refreshed the map").contains(after);
    }
}
