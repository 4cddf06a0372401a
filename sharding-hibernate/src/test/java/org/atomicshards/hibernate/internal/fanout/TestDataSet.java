package org.atomicshards.hibernate.internal.fanout;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongPredicate;

/**
 * The oracle's data: accounts, their purchases and countries, generated from a seed with many ties and nulls
 * (few distinct categories, regions and amounts). Written with plain JDBC batches, whole or filtered by the key's
 * shard.
 */
final class TestDataSet {

    static final String[] CATEGORIES = {"books", "games", "garden", "music", "tools", "Toys", "zebra"};
    static final String[] REGIONS = {"eu", "us", "apac", "Latam"};
    /**
     * Strings on which collations disagree, added to {@link #CATEGORIES} and {@link #REGIONS} in the oracle's data:
     * supplementary characters (emoji; UTF-16 orders them before U+E000-U+FFFF, code point order after), characters
     * in U+E000-U+FFFF (the ligature U+FB01), trailing spaces (equal under PAD SPACE), a trailing tab (below a space
     * under PAD SPACE), and strings equal under a case-insensitive collation.
     */
    static final String[] TRICKY_CATEGORIES = {"books ", "Books", "BOOKS", "toys", "\uD83D\uDE80 rocket",
        "\uFB01ne", "\uD83D\uDE80", "\uFB01", "zebra  ", "tools\t", "games\uFFFD", "", " "};
    static final String[] TRICKY_REGIONS = {"eu ", "EU", "\uD83D\uDE80 mars", "\uFB01ji", "us\t"};

    record AccountRow(long id, String region, Integer tier, BigDecimal balance, long score, LocalDate opened) {
    }

    record PurchaseRow(long id, long accountId, Integer amount, String category, int quantity, BigDecimal price,
                       Channel channel, Priority priority) {
    }

    final List<AccountRow> accounts = new ArrayList<>();
    final List<PurchaseRow> purchases = new ArrayList<>();
    final long keySpace;

    TestDataSet(long seed, int accountCount, int purchaseCount) {
        this(seed, accountCount, purchaseCount, false);
    }

    /** @param trickyStrings whether categories and regions include {@link #TRICKY_CATEGORIES} and its kind */
    TestDataSet(long seed, int accountCount, int purchaseCount, boolean trickyStrings) {
        String[] regions = trickyStrings ? concat(REGIONS, TRICKY_REGIONS) : REGIONS;
        String[] categories = trickyStrings ? concat(CATEGORIES, TRICKY_CATEGORIES) : CATEGORIES;
        Random random = new Random(seed);
        this.keySpace = accountCount;
        for (long id = 0; id < accountCount; id++) {
            accounts.add(new AccountRow(id, random.nextInt(6) == 0 ? null : regions[random.nextInt(regions.length)],
                    random.nextInt(5) == 0 ? null : random.nextInt(4),
                    random.nextInt(7) == 0 ? null : BigDecimal.valueOf(random.nextInt(100_000), 2),
                    random.nextInt(50), random.nextInt(8) == 0 ? null : LocalDate.of(2020, 1, 1)
                    .plusDays(random.nextInt(60))));
        }
        for (long id = 0; id < purchaseCount; id++) {
            purchases.add(new PurchaseRow(1_000 + id, random.nextInt(accountCount),
                    random.nextInt(6) == 0 ? null : random.nextInt(40) - 5,
                    random.nextInt(9) == 0 ? null : categories[random.nextInt(categories.length)],
                    1 + random.nextInt(5),
                    random.nextInt(5) == 0 ? null : BigDecimal.valueOf(random.nextInt(5_000), 2),
                    random.nextInt(7) == 0 ? null : Channel.values()[random.nextInt(Channel.values().length)],
                    random.nextInt(7) == 0 ? null : Priority.values()[random.nextInt(Priority.values().length)]));
        }
    }

    private static String[] concat(String[] first, String[] second) {
        String[] all = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    /**
     * Creates the tables as Hibernate would: a STRING enum is a native ENUM on H2 (whose values Hibernate declares
     * sorted by name) and a VARCHAR on PostgreSQL.
     */
    static void createSchema(Connection connection, boolean h2) throws SQLException {
        String channel = h2 ? "enum ('APP','PHONE','STORE','WEB')" : "varchar(10)";
        try (var statement = connection.createStatement()) {
            statement.execute("create table account (id bigint primary key, region varchar(20), tier integer,"
                    + " balance numeric(12,2), score bigint not null, opened date)");
            statement.execute("create table purchase (id bigint primary key, account_id bigint not null,"
                    + " amount integer, category varchar(20), quantity integer not null, price numeric(10,2),"
                    + " channel " + channel + ", priority smallint)");
            statement.execute("create table country (code varchar(2) primary key, name varchar(50) not null)");
        }
    }

    /** Writes the rows whose key the filter accepts, and every country (reference data). */
    void write(Connection connection, LongPredicate ownsKey) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try (PreparedStatement account = connection.prepareStatement(
                "insert into account (id, region, tier, balance, score, opened) values (?, ?, ?, ?, ?, ?)");
             PreparedStatement purchase = connection.prepareStatement(
                     "insert into purchase (id, account_id, amount, category, quantity, price, channel, priority)"
                             + " values (?, ?, ?, ?, ?, ?, ?, ?)");
             PreparedStatement country = connection.prepareStatement(
                     "insert into country (code, name) values (?, ?)")) {
            for (AccountRow row : accounts) {
                if (ownsKey.test(row.id())) {
                    account.setLong(1, row.id());
                    account.setString(2, row.region());
                    setInteger(account, 3, row.tier());
                    account.setBigDecimal(4, row.balance());
                    account.setLong(5, row.score());
                    account.setDate(6, row.opened() == null ? null : Date.valueOf(row.opened()));
                    account.addBatch();
                }
            }
            account.executeBatch();
            for (PurchaseRow row : purchases) {
                if (ownsKey.test(row.accountId())) {
                    purchase.setLong(1, row.id());
                    purchase.setLong(2, row.accountId());
                    setInteger(purchase, 3, row.amount());
                    purchase.setString(4, row.category());
                    purchase.setInt(5, row.quantity());
                    purchase.setBigDecimal(6, row.price());
                    purchase.setString(7, row.channel() == null ? null : row.channel().name());
                    if (row.priority() == null) {
                        purchase.setNull(8, Types.SMALLINT);
                    }
                    else {
                        purchase.setShort(8, (short) row.priority().ordinal());
                    }
                    purchase.addBatch();
                }
            }
            purchase.executeBatch();
            String[][] countries = {{"de", "Germany"}, {"fr", "France"}, {"jp", "Japan"}, {"us", "United States"}};
            for (String[] row : countries) {
                country.setString(1, row[0]);
                country.setString(2, row[1]);
                country.addBatch();
            }
            country.executeBatch();
            connection.commit();
        }
        finally {
            connection.setAutoCommit(autoCommit);
        }
    }

    private static void setInteger(PreparedStatement statement, int index, Integer value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.INTEGER);
        }
        else {
            statement.setInt(index, value);
        }
    }
}
