package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.hostilemodel.Account;
import org.atomicshards.hibernate.hostilemodel.Entry;
import org.atomicshards.hibernate.hostilemodel.Tag;
import org.atomicshards.hibernate.internal.routing.KeyTextLimit;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabase;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hostile String keys: the ones every database stores faithfully (quotes, SQL text, emoji, right-to-left text,
 * the empty string, the longest the column holds) are stored intact and routed consistently; the ones some database
 * cannot store (NUL, unpaired surrogates, longer than the key column or the catalog's placement column) are rejected
 * with {@link InvalidShardKeyException} before anything is written. The {@code *IT} subclasses run it on PostgreSQL
 * and MariaDB.
 */
class HostileKeysTest {

    private static final String LONGEST = "k".repeat(400);

    /** Keys every supported database stores and finds again exactly. */
    static final List<String> VALID = List.of("O'Brien", "'; DROP TABLE hostile_account; --", "\"double\" `back` \\slash\\",
            "100% _like_ *glob?", "emoji \uD83D\uDE00\uD83C\uDF89 family \uD83D\uDC69\u200D\uD83D\uDC69\u200D\uD83D\uDC67",
            "\u0645\u0631\u062D\u0628\u0627 \u05E9\u05DC\u05D5\u05DD", "\u202Eevil override\u202C", "", "  padded  ", "tab\tand\nnewline",
            LONGEST);

    /** Keys some database cannot store faithfully, with what the rejection must say. */
    static Map<String, String> invalid() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put("a\u0000b", "contains the NUL character (U+0000) at index 1");
        keys.put("a\uD800b", "contains an unpaired UTF-16 surrogate (U+D800) at index 1");
        keys.put("\uDC00", "contains an unpaired UTF-16 surrogate (U+DC00) at index 0");
        keys.put("x\uDE00\uD83D", "contains an unpaired UTF-16 surrogate (U+DE00) at index 1");
        keys.put("emoji cut in half \uD83D", "contains an unpaired UTF-16 surrogate (U+D83D) at index 18");
        keys.put(LONGEST + "k", "is 401 characters long, but at most 400 fit: the key column of ");
        keys.put("x".repeat(10 * 1024), "is 10240 characters long, but at most 400 fit");
        keys.put("\uD83D\uDE00".repeat(5 * 1024), "is 10240 characters long");
        return keys;
    }

    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    private ShardDatabases dbs;
    private String catalogUrl;

    @BeforeEach
    void databases() {
        dbs = ShardDatabases.create(kind(), 3);
        catalogUrl = dbs.newCatalogUrl();
    }

    @AfterEach
    void drop() {
        dbs.close();
    }

    private ShardedSessionFactory boot(Policy accountPolicy) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(Account.class, Entry.class, Tag.class)
                .virtualShards(16).connectionTimeoutMillis(10_000).schemaAction("create")
                .policy(Account.class, accountPolicy);
        dbs.settings().forEach(builder::property);
        return builder.catalog(catalogUrl).build();
    }

    @Test
    void validKeysAreStoredIntactAndRoutedConsistently() {
        try (ShardedSessionFactory shards = boot(Policies.hash())) {
            for (String key : VALID) {
                int index = VALID.indexOf(key);
                shards.inUnit(Account.class, key, session -> {
                    Account account = new Account(key, "label " + index);
                    session.persist(account);
                    session.persist(new Entry(account, "entry " + index));
                });
            }
            for (String key : VALID) {
                ShardId owner = shards.shardFor(Account.class, key).orElseThrow();
                assertThat(shards.find(Account.class, key)).as("find by key %s", printable(key))
                        .isNotNull().extracting(Account::getLabel).isEqualTo("label " + VALID.indexOf(key));
                List<String> entries = shards.callInUnit(Account.class, key, session -> session.createQuery(
                        "select e.text from Entry e where e.account.code = :code", String.class)
                        .setParameter("code", key).getResultList());
                assertThat(entries).containsExactly("entry " + VALID.indexOf(key));
                for (ShardDatabase shard : dbs.shards()) {
                    assertThat(keysStored(shard.id(), "select code from hostile_account where code = ?", key))
                            .as("account %s on shard %s (owner %s)", printable(key), shard.id(), owner)
                            .containsExactlyElementsOf(shard.id().equals(owner.name()) ? List.of(key) : List.of());
                }
            }
            assertThat(allStored("select code from hostile_account")).containsExactlyInAnyOrderElementsOf(VALID);
            assertThat(allStored("select account_code from hostile_entry")).containsExactlyInAnyOrderElementsOf(VALID);
            assertThat(shards.fanOut().createQuery("select count(a) from Account a", Long.class).getSingleResult())
                    .isEqualTo(VALID.size());
        }
    }

    @Test
    void invalidKeysAreRejectedBeforeAnythingIsWritten() {
        try (ShardedSessionFactory shards = boot(Policies.hash())) {
            invalid().forEach((key, problem) -> {
                String what = printable(key);
                assertThatThrownBy(() -> shards.persist(new Account(key, "x"))).as("persist %s", what)
                        .isInstanceOf(InvalidShardKeyException.class)
                        .hasMessageContaining("The shard key of unit " + Account.class.getName() + " " + problem)
                        .hasMessageContaining("Nothing was sent to the database. Fix: ");
                assertThatThrownBy(() -> shards.inUnit(Account.class, key, session -> session.persist(new Account(key, "x"))))
                        .as("inUnit %s", what).isInstanceOf(InvalidShardKeyException.class).hasMessageContaining(problem);
                assertThatThrownBy(() -> shards.find(Account.class, key)).as("find %s", what)
                        .isInstanceOf(InvalidShardKeyException.class).hasMessageContaining(problem);
                assertThatThrownBy(() -> shards.shardFor(Account.class, key)).as("shardFor %s", what)
                        .isInstanceOf(InvalidShardKeyException.class);
                try (Session session = shards.openSession(ShardId.of("s0"))) {
                    session.beginTransaction();
                    assertThatThrownBy(() -> {
                        session.persist(new Account(key, "x"));
                        session.flush();
                    }).as("persist in a session of a shard %s", what).isInstanceOf(InvalidShardKeyException.class)
                            .hasMessageContaining(problem);
                    session.getTransaction().rollback();
                }
            });
            assertNothingWritten();
        }
    }

    @Test
    void hibernatesDefaultColumnLengthOf255Applies() {
        try (ShardedSessionFactory shards = boot(Policies.hash())) {
            String longest = "t".repeat(255);
            shards.persist(new Tag(longest));
            assertThat(shards.find(Tag.class, longest)).isNotNull();

            assertThatThrownBy(() -> shards.persist(new Tag(longest + "t")))
                    .isInstanceOf(InvalidShardKeyException.class)
                    .hasMessageContaining("is 256 characters long, but at most 255 fit: the key column of Tag.name "
                            + "holds 255 characters")
                    .hasMessageContaining("@Column(length = ...)");
            assertThat(Fixtures.totalRows(dbs, "hostile_tag")).isEqualTo(1);
        }
    }

    @Test
    void roundRobinKeysAreLimitedByTheCatalogsPlacementColumn() throws SQLException {
        try (ShardedSessionFactory shards = boot(Policies.roundRobin())) {
            String longest = "r".repeat(KeyTextLimit.CATALOG_UNIT_KEY_LENGTH);
            shards.persist(new Account(longest, "fits the catalog"));
            assertThat(shards.find(Account.class, longest).getLabel()).isEqualTo("fits the catalog");

            String tooLong = longest + "r";
            assertThatThrownBy(() -> shards.persist(new Account(tooLong, "x")))
                    .isInstanceOf(InvalidShardKeyException.class)
                    .hasMessageContaining("is 256 characters long, but at most 255 fit: the catalog records where each "
                            + "unit of a lookup or round-robin policy lives, in column as_placement.unit_key")
                    .hasMessageContaining("use a policy that does not record each key in the catalog");
            assertThatThrownBy(() -> shards.place(Account.class, tooLong, ShardId.of("s1")))
                    .isInstanceOf(InvalidShardKeyException.class);
            assertThat(Fixtures.totalRows(dbs, "hostile_account")).isEqualTo(1);
            assertThat(catalogPlacements()).isEqualTo(1);
            assertThat(catalogUnitKeyLength()).as("the catalog's DDL and our limit agree")
                    .isEqualTo(KeyTextLimit.CATALOG_UNIT_KEY_LENGTH);
        }
    }

    private void assertNothingWritten() {
        for (String table : List.of("hostile_account", "hostile_entry")) {
            assertThat(Fixtures.rowsPerShard(dbs, table)).as(table).allSatisfy((shard, rows) -> assertThat(rows).isZero());
        }
    }

    private List<String> keysStored(String shardId, String sql, String key) {
        try (Connection c = dbs.connect(shardId); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, key);
            return strings(ps);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> allStored(String sql) {
        List<String> all = new ArrayList<>();
        for (ShardDatabase shard : dbs.shards()) {
            try (Connection c = dbs.connect(shard.id()); PreparedStatement ps = c.prepareStatement(sql)) {
                all.addAll(strings(ps));
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }
        return all;
    }

    private static List<String> strings(PreparedStatement ps) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }

    private long catalogPlacements() throws SQLException {
        try (Connection c = DriverManager.getConnection(catalogUrl);
             PreparedStatement ps = c.prepareStatement("select count(*) from as_placement");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private int catalogUnitKeyLength() throws SQLException {
        try (Connection c = DriverManager.getConnection(catalogUrl);
             ResultSet rs = c.getMetaData().getColumns(null, null, "AS_PLACEMENT", "UNIT_KEY")) {
            assertThat(rs.next()).isTrue();
            return rs.getInt("COLUMN_SIZE");
        }
    }

    /** A key for a test description: escaped and cut, never 10 KB of text. */
    private static String printable(String key) {
        StringBuilder text = new StringBuilder();
        key.codePoints().limit(40).forEach(cp -> text.append(cp < 0x20 || (cp >= 0xD800 && cp <= 0xDFFF)
                ? String.format("\\u%04X", cp) : new String(Character.toChars(cp))));
        return "'" + text + (key.length() > 40 ? "...' (" + key.length() + " chars)" : "'");
    }
}
