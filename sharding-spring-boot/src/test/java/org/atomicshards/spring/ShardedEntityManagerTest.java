package org.atomicshards.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.MissingShardKeyException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.UnboundEntityManagerException;
import org.atomicshards.hibernate.UnreplicatedReferenceDataWriteException;
import org.atomicshards.spring.testapp.Account;
import org.atomicshards.spring.testapp.Currency;
import org.atomicshards.spring.testapp.Ledger;
import org.atomicshards.spring.testapp.AccountRepository;
import org.atomicshards.spring.testapp.CurrencyRepository;
import org.atomicshards.spring.testapp.EntryRepository;
import org.atomicshards.spring.testapp.TestApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.UnexpectedRollbackException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The routing entity manager behind repositories and {@code @PersistenceContext}, in one small application on three
 * H2 shards: where work binds, what a bound unit of work rejects, and what needs a unit of work at all.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardedEntityManagerTest {

    private ConfigurableApplicationContext context;
    private final List<Long> accountIds = new ArrayList<>();

    @BeforeAll
    void start() {
        String run = UUID.randomUUID().toString().substring(0, 8);
        context = new SpringApplicationBuilder(TestApplication.class).run("--spring.main.banner-mode=off",
                "--atomicshards.shards[0].id=a", "--atomicshards.shards[0].url=jdbc:h2:mem:em_a_" + run + ";DB_CLOSE_DELAY=-1",
                "--atomicshards.shards[1].id=b", "--atomicshards.shards[1].url=jdbc:h2:mem:em_b_" + run + ";DB_CLOSE_DELAY=-1",
                "--atomicshards.shards[2].id=c", "--atomicshards.shards[2].url=jdbc:h2:mem:em_c_" + run + ";DB_CLOSE_DELAY=-1",
                "--atomicshards.catalog.url=jdbc:h2:mem:em_catalog_" + run + ";DB_CLOSE_DELAY=-1",
                "--atomicshards.virtual-shards=64", "--atomicshards.schema-action=create-drop");
        shards().replicate(session -> session.persist(new Currency("EUR")));
        for (long id = 1; id <= 12; id++) {
            accounts().save(new Account(id, id % 2 == 0 ? "even" : "odd"));
            accountIds.add(id);
        }
    }

    @AfterAll
    void stop() {
        context.close();
    }

    private ShardedSessionFactory shards() {
        return context.getBean(ShardedSessionFactory.class);
    }

    private AccountRepository accounts() {
        return context.getBean(AccountRepository.class);
    }

    private ShardId shardOf(long account) {
        return shards().shardFor(Account.class, account).orElseThrow();
    }

    private long[] twoAccountsOnDifferentShards() {
        for (long other : accountIds) {
            if (!shardOf(other).equals(shardOf(1))) {
                return new long[] {1, other};
            }
        }
        throw new IllegalStateException("every account on one shard");
    }

    private TransactionTemplate transaction(boolean readOnly) {
        TransactionTemplate template = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
        template.setReadOnly(readOnly);
        return template;
    }

    @Nested
    class Beans {

        @Test
        void theAutoConfigurationProvidesTheShardedFactoryAJpaTransactionManagerAndScopes() {
            assertThat(context.getBean(PlatformTransactionManager.class)).isInstanceOf(JpaTransactionManager.class);
            assertThat(shards().shards()).extracting(ShardId::toString).containsExactly("a", "b", "c");
            assertThat(context.getBean(ShardScopes.class)).isNotNull();
        }

        @Test
        void aRepositoryMethodBackedByANamedQueryFansOutLikeAnyOther() {
            assertThat(accounts().findNamedOwner("even")).extracting(Account::getId)
                    .containsExactly(2L, 4L, 6L, 8L, 10L, 12L);
        }

        @Test
        void everyShardPoolReportsHikariMetricsUnderItsOwnPoolName() {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            accountIds.forEach(id -> accounts().findById(id));
            assertThat(registry.find("hikaricp.connections").gauges())
                    .extracting(gauge -> gauge.getId().getTag("pool"))
                    .anySatisfy(pool -> assertThat(pool).endsWith("-a"))
                    .anySatisfy(pool -> assertThat(pool).endsWith("-b"))
                    .anySatisfy(pool -> assertThat(pool).endsWith("-c"));
        }

        @Test
        void theFactoryRecordsItsMetersInTheApplicationsRegistry() {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            long id = accountIds.get(0);
            String shard = shards().shardFor(Account.class, id).orElseThrow().name();
            shards().inUnit(Account.class, id, session -> session.find(Account.class, id));
            io.micrometer.core.instrument.Timer units = registry.find("atomicshards.unit_of_work")
                    .tag("shard", shard).tag("unit", "Account").tag("outcome", "success").timer();
            assertThat(units).isNotNull();
            assertThat(units.count()).isPositive();
        }
    }

    @Nested
    class AUnitOfWorkBoundToAShard {

        @Test
        void rejectsAQueryReachingOtherShardsInAReadWriteTransactionAndCommitsNothing() {
            assertThatThrownBy(() -> transaction(false).executeWithoutResult(status -> {
                Account account = accounts().findById(1L).orElseThrow();
                account.setOwner("renamed");
                accounts().findByOwner("odd");
            })).isInstanceOf(CrossShardUnitOfWorkException.class)
                    .hasMessageContaining("bound to shard '" + shardOf(1) + "'")
                    .hasMessageContaining("names no shard key");
            assertThat(accounts().findById(1L)).map(Account::getOwner).contains("odd");
        }

        @Test
        void commitsNothingEvenWhenTheCallerSwallowsTheGuardException() {
            long[] pair = twoAccountsOnDifferentShards();
            assertThatThrownBy(() -> transaction(false).executeWithoutResult(status -> {
                accounts().findById(pair[0]).orElseThrow().setOwner("swallowed");
                try {
                    accounts().findById(pair[1]);
                } catch (CrossShardUnitOfWorkException expected) {
                    // the caller carries on as if nothing happened
                }
            })).isInstanceOf(UnexpectedRollbackException.class);
            assertThat(accounts().findById(pair[0]).orElseThrow().getOwner()).isEqualTo(pair[0] % 2 == 0 ? "even" : "odd");
        }

        @Test
        void mayStillFanOutInAReadOnlyTransaction() {
            List<Account> odd = transaction(true).execute(status -> {
                accounts().findById(1L).orElseThrow();
                return accounts().findByOwner("odd");
            });
            assertThat(odd).extracting(Account::getId).containsExactlyInAnyOrder(1L, 3L, 5L, 7L, 9L, 11L);
        }

        @Test
        void rejectsARoutedReadOfAnotherShard() {
            long[] pair = twoAccountsOnDifferentShards();
            assertThatThrownBy(() -> transaction(true).executeWithoutResult(status -> {
                accounts().findById(pair[0]);
                accounts().findById(pair[1]);
            })).isInstanceOf(CrossShardUnitOfWorkException.class)
                    .hasMessageContaining("find Account#" + pair[1]);
        }

        @Test
        void saveAllOfEntitiesOnSeveralShardsIsRejectedAndSavesNothing() {
            long[] pair = twoAccountsOnDifferentShards();
            long first = 100 + pair[0];
            long second = 100 + pair[1];
            while (!shardOf(first).equals(shardOf(pair[0]))) {
                first += 1000;
            }
            while (!shardOf(second).equals(shardOf(pair[1]))) {
                second += 1000;
            }
            List<Account> both = List.of(new Account(first, "batch"), new Account(second, "batch"));
            assertThatThrownBy(() -> accounts().saveAll(both))
                    .isInstanceOf(CrossShardUnitOfWorkException.class);
            assertThat(accounts().findByOwner("batch")).isEmpty();
        }

        @Test
        void aScopeInsideAScopeOfAnotherShardIsRejectedBeforeRunning() {
            long[] pair = twoAccountsOnDifferentShards();
            ShardScopes scopes = context.getBean(ShardScopes.class);
            List<String> ran = new ArrayList<>();
            assertThatThrownBy(() -> scopes.runInUnit(Account.class, pair[0],
                    () -> scopes.runInUnit(Account.class, pair[1], () -> ran.add("inner"))))
                    .isInstanceOf(CrossShardUnitOfWorkException.class)
                    .hasMessageContaining("Nothing was run");
            assertThat(ran).isEmpty();
        }

        @Test
        void theFactorysOwnUnitOfWorkOnAnotherShardIsRejectedInsideAScope() {
            long[] pair = twoAccountsOnDifferentShards();
            ShardScopes scopes = context.getBean(ShardScopes.class);
            List<String> ran = new ArrayList<>();
            assertThatThrownBy(() -> scopes.runInUnit(Account.class, pair[0],
                    () -> shards().inUnit(Account.class, pair[1], session -> ran.add("inner"))))
                    .isInstanceOf(CrossShardUnitOfWorkException.class)
                    .hasMessageContaining("on shard '" + shardOf(pair[1]) + "' inside the unit of work bound to shard '"
                            + shardOf(pair[0]) + "'");
            assertThat(ran).isEmpty();
            Account joined = scopes.callInUnit(Account.class, pair[0],
                    () -> shards().callInUnit(Account.class, pair[0], session -> session.find(Account.class, pair[0])));
            assertThat(joined.getId()).isEqualTo(pair[0]);
        }

        @Test
        void seesTheShardOfAHibernateScopeOrUnitOfWorkAsItsOwn() {
            ShardScopes scopes = context.getBean(ShardScopes.class);
            ShardId owner = shardOf(1);
            assertThat(org.atomicshards.hibernate.ShardScope.callOn(owner, scopes::currentShard)).contains(owner);
            Optional<ShardId> inUnit = shards().callInUnit(Account.class, 1L, session -> scopes.currentShard());
            assertThat(inUnit).contains(owner);
            assertThat(scopes.currentShard()).isEmpty();
        }
    }

    @Nested
    class OperationsThatNeedAShard {

        @Test
        void aBulkDeleteRunsInTheUnitOfWorkNamedByShardKeyParam() {
            Ledger ledger = context.getBean(Ledger.class);
            ledger.book(4, 10);
            ledger.book(4, 20);
            assertThat(ledger.clear(4)).isEqualTo(2);
            assertThat(context.getBean(EntryRepository.class).countByAccountId(4L)).isZero();
        }

        @Test
        void aBulkDeleteOutsideAUnitOfWorkSaysHowToNameTheShard() {
            assertThatThrownBy(() -> transaction(false).executeWithoutResult(
                    status -> context.getBean(EntryRepository.class).deleteAllOf(4L)))
                    .isInstanceOf(UnboundEntityManagerException.class)
                    .hasMessageContaining("@ShardKeyParam");
        }

        @Test
        void aShardKeyParamMethodRunsItsKeylessQueryOnItsOwnShardOnlyIfTheQueryCannotReachOthers() {
            Ledger ledger = context.getBean(Ledger.class);
            assertThatThrownBy(() -> ledger.ownersNamed(2, "even"))
                    .isInstanceOf(CrossShardUnitOfWorkException.class);
        }

        @Test
        void theShardKeyParamAdviceRunsBeforeTheTransactionBegins() {
            Ledger ledger = context.getBean(Ledger.class);
            jakarta.persistence.EntityManagerFactory factory =
                    context.getBean(jakarta.persistence.EntityManagerFactory.class);
            for (long id : List.of(1L, 2L, 3L)) {
                assertThat(ledger.shardAtStart(id, factory)).isEqualTo(shardOf(id));
            }
        }

        @Test
        void aShardKeyParamMayBeAnEntityOfTheUnit() {
            Ledger ledger = context.getBean(Ledger.class);
            Account detached = accounts().findById(6L).orElseThrow();
            ledger.rename(detached, "renamed through the entity");
            assertThat(accounts().findById(6L)).map(Account::getOwner).contains("renamed through the entity");
            ledger.rename(detached, "even");
        }

        @Test
        void aNullShardKeyParamIsRejectedBeforeTheMethodRuns() {
            Ledger ledger = context.getBean(Ledger.class);
            long entriesBefore = context.getBean(EntryRepository.class).count();
            assertThatThrownBy(() -> ledger.bookFor(null, 10))
                    .isInstanceOf(MissingShardKeyException.class)
                    .hasMessageContaining("@ShardKeyParam argument #0 is null");
            assertThat(context.getBean(EntryRepository.class).count()).isEqualTo(entriesBefore);
        }

        @Test
        void referenceDataIsReadFromAnyShardButNotWrittenThroughARepository() {
            CurrencyRepository currencies = context.getBean(CurrencyRepository.class);
            assertThat(currencies.findById("EUR")).isPresent();
            assertThatThrownBy(() -> currencies.save(new Currency("USD")))
                    .isInstanceOf(UnreplicatedReferenceDataWriteException.class)
                    .hasMessageContaining("replicate");
        }

        @Test
        void aNativeQueryRunsOnTheScopedShard() {
            ShardScopes scopes = context.getBean(ShardScopes.class);
            EntityManagerHolder holder = context.getAutowireCapableBeanFactory().createBean(EntityManagerHolder.class);
            Number rows = scopes.callInUnit(Account.class, 1L, () -> transaction(true).execute(status ->
                    (Number) holder.entityManager.createNativeQuery("select count(*) from Account").getSingleResult()));
            long expected = accountIds.stream().filter(id -> shardOf(id).equals(shardOf(1))).count();
            assertThat(rows.longValue()).isEqualTo(expected);
        }
    }

    /** A bean with Spring's shared entity manager, as application code gets it. */
    static class EntityManagerHolder {

        @PersistenceContext
        EntityManager entityManager;
    }
}
