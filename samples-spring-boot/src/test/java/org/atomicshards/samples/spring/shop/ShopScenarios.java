package org.atomicshards.samples.spring.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import org.atomicshards.hibernate.CrossShardUnitOfWorkException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.spring.ShardScopes;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.ApplicationContext;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Slice;
import org.springframework.data.domain.Sort;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The shop through its Spring Data repositories and services, on sharded databases of one kind, with the same
 * application on one plain database as the oracle: every search must return exactly what the oracle returns, every
 * keyed operation must touch only the owning shard (measured with the shard pools' HikariCP metrics), and units of
 * work must keep Spring's transaction semantics.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ShopScenarios {

    private ShardDatabases databases;
    private ShopContexts shop;
    private ShopData data;
    private final List<Long> createdCustomers = new ArrayList<>();

    abstract DatabaseKind databaseKind();

    /**
     * Options of each shard's {@code create database} statement. Sorting customers by name across shards needs a
     * binary collation (the oracle is H2, binary too): fan-out refuses string ORDER BY on other collations.
     */
    String shardDatabaseOptions() {
        return "";
    }

    @BeforeAll
    void startShop() {
        databases = ShardDatabases.create(databaseKind(), 4, shardDatabaseOptions());
        shop = ShopContexts.start(databases);
        data = ShopData.load(shop);
    }

    @AfterAll
    void stopShop() {
        try {
            if (shop != null) {
                shop.close();
            }
        } finally {
            databases.close();
        }
    }

    @AfterEach
    void removeCreatedCustomers() {
        for (Long id : createdCustomers) {
            shop.shards().inUnit(Customer.class, id, session -> {
                session.createMutationQuery("delete from LoyaltyEvent e where e.customerId = :id")
                        .setParameter("id", id).executeUpdate();
                session.createMutationQuery("delete from PurchaseOrder o where o.customer.id = :id")
                        .setParameter("id", id).executeUpdate();
                session.createMutationQuery("delete from Customer c where c.id = :id")
                        .setParameter("id", id).executeUpdate();
            });
            shop.oracle(PurchaseOrderRepository.class).deleteAll(shop.oracle(PurchaseOrderRepository.class)
                    .findByCustomerIdOrderByPlacedOnAscIdAsc(id));
            shop.oracle(CustomerRepository.class).deleteById(id);
        }
        createdCustomers.clear();
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private ShardId shardOf(long customerId) {
        return shop.shards().shardFor(Customer.class, customerId).orElseThrow();
    }

    /** Runs {@code work} and asserts that only {@code shard}'s pool handed out connections meanwhile. */
    private <T> T onlyOn(ShardId shard, java.util.function.Supplier<T> work) {
        List<Long> before = shop.acquisitions();
        T result = work.get();
        List<Long> after = shop.acquisitions();
        List<ShardId> shards = shop.shards().shards();
        for (int i = 0; i < shards.size(); i++) {
            long used = after.get(i) - before.get(i);
            if (shards.get(i).equals(shard)) {
                assertThat(used).as("connections from the owning shard %s", shard).isPositive();
            } else {
                assertThat(used).as("connections from shard %s (owner is %s)", shards.get(i), shard).isZero();
            }
        }
        return result;
    }

    /** How many rows with this id {@code table} holds on each shard, read with plain JDBC. */
    private Map<String, Long> rowsPerShard(String table, Object id) {
        Map<String, Long> rows = new java.util.LinkedHashMap<>();
        for (var shard : databases.shards()) {
            try (Connection connection = databases.connect(shard.id());
                 PreparedStatement statement = connection.prepareStatement(
                         "select count(*) from " + table + " where id = ?")) {
                statement.setObject(1, id);
                try (ResultSet result = statement.executeQuery()) {
                    result.next();
                    rows.put(shard.id(), result.getLong(1));
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        return rows;
    }

    private Customer newCustomer(long id, String name) {
        createdCustomers.add(id);
        return new Customer(id, name, "new" + id + "@shop.test", Tier.BRONZE, "FR");
    }

    /** A customer created in both shops, removed after the test. */
    private void createInBoth(long id, String name) {
        shop.sharded(CustomerRepository.class).save(newCustomer(id, name));
        shop.oracle(CustomerRepository.class).save(new Customer(id, name, "new" + id + "@shop.test", Tier.BRONZE, "FR"));
    }

    private static Object normalize(Object result) {
        if (result instanceof Page<?> page) {
            return List.of(normalize(page.getContent()), page.getTotalElements(), page.getTotalPages(),
                    page.getNumber(), page.hasNext());
        }
        if (result instanceof Slice<?> slice) {
            return List.of(normalize(slice.getContent()), slice.hasNext(), slice.getNumber());
        }
        if (result instanceof Collection<?> rows) {
            return rows.stream().map(ShopScenarios::normalize).toList();
        }
        if (result instanceof Customer customer) {
            return "C" + customer.getId() + ":" + customer.getName() + ":" + customer.getTier();
        }
        if (result instanceof PurchaseOrder order) {
            return "O" + order.getId() + ":" + order.getStatus() + ":" + order.getTotalCents() + ":" + order.getPlacedOn();
        }
        return result;
    }

    // ---- scenarios -----------------------------------------------------------------------------------------

    @Nested
    class KeyedOperationsRouteToTheOwningShard {

        @Test
        void findByIdOfARootReadsOnlyItsShard() {
            Customer expected = data.customers.get(6);
            Customer found = onlyOn(shardOf(expected.getId()),
                    () -> shop.sharded(CustomerRepository.class).findById(expected.getId()).orElseThrow());
            assertThat(normalize(found)).isEqualTo(normalize(expected));
        }

        @Test
        void findByIdAndExistsByIdOfAMemberRouteByItsSnowflakeId() {
            PurchaseOrder order = data.orders.get(3);
            ShardId owner = shardOf(order.getCustomer().getId());
            PurchaseOrderRepository orders = shop.sharded(PurchaseOrderRepository.class);
            assertThat(normalize(onlyOn(owner, () -> orders.findById(order.getId()).orElseThrow())))
                    .isEqualTo(normalize(order));
            assertThat(onlyOn(owner, () -> orders.existsById(order.getId()))).isTrue();
        }

        @Test
        void existsByIdOfAMissingKeyAsksOnlyTheShardThatWouldOwnIt() {
            long missing = 987_654L;
            assertThat(onlyOn(shardOf(missing), () -> shop.sharded(CustomerRepository.class).existsById(missing)))
                    .isFalse();
        }

        @Test
        void saveOfANewRootAndANewMemberWritesOnTheOwnersShardOnly() {
            long id = 1001;
            ShardId owner = shardOf(id);
            Customer customer = onlyOn(owner, () -> shop.sharded(CustomerRepository.class).save(newCustomer(id, "New")));
            PurchaseOrder order = onlyOn(owner, () -> shop.sharded(PurchaseOrderRepository.class)
                    .save(new PurchaseOrder(customer, OrderStatus.OPEN, 4200, LocalDate.of(2026, 3, 1))));

            assertThat(rowsPerShard("Customer", id)).containsEntry(owner.toString(), 1L)
                    .values().containsOnly(0L, 1L).filteredOn(rows -> rows == 1L).hasSize(1);
            assertThat(rowsPerShard("PurchaseOrder", order.getId())).containsEntry(owner.toString(), 1L)
                    .values().filteredOn(rows -> rows == 1L).hasSize(1);
        }

        @Test
        void saveOfAnExistingEntityMergesItOnItsShard() {
            long id = 1002;
            ShardId owner = shardOf(id);
            CustomerRepository customers = shop.sharded(CustomerRepository.class);
            Customer detached = customers.save(newCustomer(id, "Before"));
            detached.setName("After");
            onlyOn(owner, () -> customers.save(detached));
            assertThat(customers.findById(id)).map(Customer::getName).contains("After");
        }

        @Test
        void deleteByIdRemovesTheRowFromItsShardOnly() {
            long id = 1003;
            ShardId owner = shardOf(id);
            CustomerRepository customers = shop.sharded(CustomerRepository.class);
            customers.save(newCustomer(id, "Doomed"));
            onlyOn(owner, () -> {
                customers.deleteById(id);
                return null;
            });
            assertThat(rowsPerShard("Customer", id).values()).containsOnly(0L);
        }

        @Test
        void findByIdWithAnIdThatDoesNotEncodeTheKeyFindsTheRowOnWhicheverShardHoldsIt() {
            long id = 1004;
            createInBoth(id, "Loyal");
            PurchaseOrder placed = shop.sharded(ShopService.class).placeOrder(id, 12_300, LocalDate.of(2026, 5, 5));
            LoyaltyEvent credited = shop.sharded(LoyaltyEventRepository.class).findByCustomerId(id).stream()
                    .filter(e -> e.getReason().equals("order " + placed.getId())).findFirst().orElseThrow();
            assertThat(shop.sharded(LoyaltyEventRepository.class).findById(credited.getId()))
                    .map(LoyaltyEvent::getPoints).contains(123);
        }

        @Test
        void derivedAndDeclaredQueriesNamingTheKeyRunOnTheOwningShardOnly() {
            long id = data.orders.get(0).getCustomer().getId();
            ShardId owner = shardOf(id);
            PurchaseOrderRepository orders = shop.sharded(PurchaseOrderRepository.class);
            PurchaseOrderRepository oracle = shop.oracle(PurchaseOrderRepository.class);
            assertThat(normalize(onlyOn(owner, () -> orders.findByCustomerIdOrderByPlacedOnAscIdAsc(id))))
                    .isEqualTo(normalize(oracle.findByCustomerIdOrderByPlacedOnAscIdAsc(id)));
            assertThat(normalize(onlyOn(owner, () -> orders.largeOrdersOf(id, 1000))))
                    .isEqualTo(normalize(oracle.largeOrdersOf(id, 1000)));
            assertThat(normalize(onlyOn(owner, () -> orders.findByCustomerIdAndStatus(id, OrderStatus.PAID))))
                    .isEqualTo(normalize(oracle.findByCustomerIdAndStatus(id, OrderStatus.PAID)));
        }
    }

    /** Each search, as a function of the repositories of one context; run on both and compared. */
    static Stream<Arguments> searches() {
        return Stream.of(
                search("findAll() of customers, as a set", c -> c.getBean(CustomerRepository.class).findAll()
                        .stream().map(Customer::getId).sorted().toList()),
                search("findAll(Sort) of customers", c -> c.getBean(CustomerRepository.class)
                        .findAll(Sort.by("name", "id"))),
                search("findAll(Pageable) page 0", c -> c.getBean(CustomerRepository.class)
                        .findAll(PageRequest.of(0, 7, Sort.by(Sort.Order.desc("name"), Sort.Order.asc("id"))))),
                search("findAll(Pageable) page 3", c -> c.getBean(CustomerRepository.class)
                        .findAll(PageRequest.of(3, 7, Sort.by(Sort.Order.desc("name"), Sort.Order.asc("id"))))),
                search("findAll(Pageable) by an enum stored by name", c -> c.getBean(CustomerRepository.class)
                        .findAll(PageRequest.of(3, 7, Sort.by(Sort.Order.desc("tier"), Sort.Order.asc("id"))))),
                search("findAll(Pageable) past the end", c -> c.getBean(CustomerRepository.class)
                        .findAll(PageRequest.of(20, 7, Sort.by("id")))),
                search("count()", c -> c.getBean(CustomerRepository.class).count()),
                search("Page findByTier", c -> c.getBean(CustomerRepository.class)
                        .findByTier(Tier.GOLD, PageRequest.of(1, 5, Sort.by("name", "id")))),
                search("Slice findByCountryCode", c -> c.getBean(CustomerRepository.class)
                        .findByCountryCode("DE", PageRequest.of(1, 4, Sort.by(Sort.Order.desc("name"), Sort.Order.asc("id"))))),
                search("Stream streamByTier", c -> new TransactionTemplate(c.getBean(PlatformTransactionManager.class))
                        .execute(status -> {
                            try (Stream<Customer> customers = c.getBean(CustomerRepository.class)
                                    .streamByTierOrderByNameAscIdAsc(Tier.SILVER)) {
                                return customers.map(ShopScenarios::normalize).toList();
                            }
                        })),
                search("List findByNameStartingWith", c -> c.getBean(CustomerRepository.class)
                        .findByNameStartingWithOrderByNameAscIdAsc("A")),
                search("findTop3 by name desc", c -> c.getBean(CustomerRepository.class)
                        .findTop3ByOrderByNameDescIdDesc()),
                search("countByTier", c -> c.getBean(CustomerRepository.class).countByTier(Tier.BRONZE)),
                search("existsByEmail (present)", c -> c.getBean(CustomerRepository.class)
                        .existsByEmail("c17@shop.test")),
                search("existsByEmail (absent)", c -> c.getBean(CustomerRepository.class)
                        .existsByEmail("nobody@shop.test")),
                search("Page findByStatus with its count query", c -> c.getBean(PurchaseOrderRepository.class)
                        .findByStatus(OrderStatus.PAID, PageRequest.of(2, 4,
                                Sort.by(Sort.Order.desc("totalCents"), Sort.Order.asc("id"))))),
                search("Page @Query findInPriceRange", c -> c.getBean(PurchaseOrderRepository.class)
                        .findInPriceRange(1000, 3000, PageRequest.of(1, 6, Sort.by("placedOn", "id")))),
                search("countByStatus", c -> c.getBean(PurchaseOrderRepository.class).countByStatus(OrderStatus.OPEN)),
                search("existsByStatusAndTotalCentsGreaterThan (true)", c -> c.getBean(PurchaseOrderRepository.class)
                        .existsByStatusAndTotalCentsGreaterThan(OrderStatus.SHIPPED, 2000)),
                search("existsByStatusAndTotalCentsGreaterThan (false)", c -> c.getBean(PurchaseOrderRepository.class)
                        .existsByStatusAndTotalCentsGreaterThan(OrderStatus.SHIPPED, 1_000_000)),
                search("a read-only @Transactional service search", c -> c.getBean(ShopService.class)
                        .ordersWithStatus(OrderStatus.OPEN, PageRequest.of(1, 5, Sort.by("placedOn", "id")))),
                search("reference data findAll", c -> c.getBean(CountryRepository.class).findAll(Sort.by("code"))
                        .stream().map(Country::getCode).toList()));
    }

    private static Arguments search(String name, Function<ApplicationContext, Object> search) {
        return Arguments.of(name, search);
    }

    @Nested
    class SearchesWithoutAKeyFanOutAndEqualOneDatabase {

        @ParameterizedTest(name = "{0}")
        @MethodSource("org.atomicshards.samples.spring.shop.ShopScenarios#searches")
        void returnsWhatTheUnshardedDatabaseReturns(String name, Function<ApplicationContext, Object> search) {
            Object expected = normalize(search.apply(shop.oracle));
            Object actual = normalize(search.apply(shop.sharded));
            assertThat(actual).isEqualTo(expected);
        }

        @Test
        void thePagedSearchReallyReadsEveryShard() {
            List<Long> before = shop.acquisitions();
            shop.sharded(PurchaseOrderRepository.class).findByStatus(OrderStatus.PAID, PageRequest.of(0, 3));
            List<Long> after = shop.acquisitions();
            for (int i = 0; i < before.size(); i++) {
                assertThat(after.get(i)).as("shard s%d", i).isGreaterThan(before.get(i));
            }
        }
    }

    @Nested
    class UnitsOfWork {

        @Test
        void aServiceMethodNamingTheKeyCommitsOnTheCustomersShard() {
            long id = 1005;
            createInBoth(id, "Buyer");
            PurchaseOrder order = onlyOn(shardOf(id),
                    () -> shop.sharded(ShopService.class).placeOrder(id, 5_000, LocalDate.of(2026, 6, 1)));
            assertThat(rowsPerShard("PurchaseOrder", order.getId())).containsEntry(shardOf(id).toString(), 1L)
                    .values().filteredOn(rows -> rows == 1L).hasSize(1);
        }

        @Test
        void entitiesLoadedByAKeyedQueryAreManagedAndFlushedAtCommit() {
            long id = 1010;
            createInBoth(id, "Payer");
            ShopService service = shop.sharded(ShopService.class);
            service.placeOrder(id, 700, LocalDate.of(2026, 7, 1));
            service.placeOrder(id, 800, LocalDate.of(2026, 7, 2));
            assertThat(service.payOpenOrders(id)).isEqualTo(2);
            assertThat(shop.sharded(PurchaseOrderRepository.class).findByCustomerIdAndStatus(id, OrderStatus.PAID))
                    .hasSize(2);
        }

        @Test
        void touchingASecondShardThrowsTheGuardExceptionAndNothingCommits() {
            long[] pair = twoCustomersOnDifferentShards();
            UnitOfWorkProbe probe = shop.sharded(UnitOfWorkProbe.class);
            long ordersBefore = shop.sharded(PurchaseOrderRepository.class).count();

            assertThatThrownBy(() -> probe.orderForBoth(pair[0], pair[1]))
                    .isInstanceOf(CrossShardUnitOfWorkException.class)
                    .hasMessageContaining("shard '" + shardOf(pair[1]) + "'")
                    .hasMessageContaining("bound to shard '" + shardOf(pair[0]) + "'");
            assertThatThrownBy(() -> probe.orderForBothUnpinned(pair[0], pair[1]))
                    .isInstanceOf(CrossShardUnitOfWorkException.class);

            assertThat(shop.sharded(PurchaseOrderRepository.class).count()).isEqualTo(ordersBefore);
        }

        @Test
        void anUnpinnedTransactionBindsToTheShardOfItsFirstWrite() {
            long id = 1011;
            Customer saved = onlyOn(shardOf(id),
                    () -> shop.sharded(UnitOfWorkProbe.class).register(newCustomer(id, "Late binder")));
            assertThat(saved.getId()).isEqualTo(id);
            assertThat(rowsPerShard("Customer", id)).containsEntry(shardOf(id).toString(), 1L);
        }

        @Test
        void anExplicitScopeAroundATransactionalCallPinsItsTransaction() {
            long[] pair = twoCustomersOnDifferentShards();
            long id = 1014;
            while (shardOf(id).equals(shardOf(pair[0]))) {
                id += 1;
            }
            Customer elsewhere = newCustomer(id, "Elsewhere");
            ShardScopes scopes = shop.sharded(ShardScopes.class);
            UnitOfWorkProbe probe = shop.sharded(UnitOfWorkProbe.class);
            assertThatThrownBy(() -> scopes.callInUnit(Customer.class, pair[0], () -> probe.register(elsewhere)))
                    .isInstanceOf(CrossShardUnitOfWorkException.class)
                    .hasMessageContaining("bound to shard '" + shardOf(pair[0]) + "'");
            assertThat(rowsPerShard("Customer", id).values()).containsOnly(0L);
        }

        @Test
        void transactionSynchronizationCallbacksRunAsWithOneDatabase() {
            long id = 1012;
            createInBoth(id, "Synced");
            List<List<String>> outcomes = new ArrayList<>();
            for (ApplicationContext context : List.of(shop.sharded, shop.oracle)) {
                UnitOfWorkProbe probe = context.getBean(UnitOfWorkProbe.class);
                probe.callbacks().clear();
                probe.renameAndRecord(id, "Committed");
                assertThatThrownBy(() -> probe.renameRecordAndFail(id, "Rolled back"))
                        .isInstanceOf(IllegalStateException.class);
                outcomes.add(List.copyOf(probe.callbacks()));
            }
            assertThat(outcomes.get(0))
                    .containsExactly("beforeCommit", "afterCommit", "completed", "rolled back")
                    .isEqualTo(outcomes.get(1));
            assertThat(shop.sharded(CustomerRepository.class).findById(id)).map(Customer::getName).contains("Committed");
        }

        @Test
        void readOnlyAndRollbackRulesBehaveAsWithOneDatabase() {
            long id = 1013;
            createInBoth(id, "Original");
            List<List<String>> namesAfterEachStep = new ArrayList<>();
            for (ApplicationContext context : List.of(shop.sharded, shop.oracle)) {
                UnitOfWorkProbe probe = context.getBean(UnitOfWorkProbe.class);
                CustomerRepository customers = context.getBean(CustomerRepository.class);
                List<String> names = new ArrayList<>();
                probe.renameReadOnly(id, "Read-only rename");
                names.add(customers.findById(id).orElseThrow().getName());
                assertThatThrownBy(() -> probe.renameThenThrowChecked(id, "Checked"))
                        .isInstanceOf(UnitOfWorkProbe.CheckedFailure.class);
                names.add(customers.findById(id).orElseThrow().getName());
                assertThatThrownBy(() -> probe.renameRecordAndFail(id, "Runtime"))
                        .isInstanceOf(IllegalStateException.class);
                names.add(customers.findById(id).orElseThrow().getName());
                assertThatThrownBy(() -> probe.renameThenThrowNoRollback(id, "No rollback"))
                        .isInstanceOf(IllegalStateException.class);
                names.add(customers.findById(id).orElseThrow().getName());
                namesAfterEachStep.add(names);
            }
            assertThat(namesAfterEachStep.get(0))
                    .containsExactly("Original", "Checked", "Checked", "No rollback")
                    .isEqualTo(namesAfterEachStep.get(1));
        }

        private long[] twoCustomersOnDifferentShards() {
            long first = data.customers.get(0).getId();
            for (Customer other : data.customers) {
                if (!shardOf(other.getId()).equals(shardOf(first))) {
                    return new long[] {first, other.getId()};
                }
            }
            throw new IllegalStateException("all customers on one shard");
        }
    }
}
