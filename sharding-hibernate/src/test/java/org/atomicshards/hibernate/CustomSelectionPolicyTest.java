package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import org.atomicshards.hibernate.custompolicy.Author;
import org.atomicshards.hibernate.custompolicy.FirstLetterSelection;
import org.atomicshards.hibernate.custompolicy.KeyLengthSelection;
import org.atomicshards.hibernate.custompolicy.Post;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A selection policy written by a user (one class in {@code custompolicy}), registered through ServiceLoader or the
 * builder and configured through settings, routes units of work and fan-outs like a built-in: rows land where the
 * policy says, fan-out results equal the same queries on one database, a misconfigured option fails the boot.
 */
class CustomSelectionPolicyTest {

    /** Virtual shards 0, 1 and 2 on s0, s1 and s2: a key of length n lives on shard s(n % 3). */
    private static final Map<String, Object> KEY_LENGTH = Map.of(
            "atomicshards.virtual_shards", "6",
            "atomicshards.virtual_shard_map", "0-0=s0,1-1=s1,2-5=s2",
            "atomicshards.unit.Author.policy", "key_length",
            "atomicshards.unit.Author.modulus", "3");

    private ShardDatabases dbs;

    @BeforeEach
    void databases() {
        dbs = ShardDatabases.create(DatabaseKind.H2, 3);
    }

    @AfterEach
    void drop() {
        dbs.close();
    }

    private ShardedSessionFactoryBuilder builder(Map<String, Object> settings, Class<?>... model) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(model).schemaAction("create");
        dbs.settings().forEach(builder::property);
        builder.catalog(dbs.newCatalogUrl());
        settings.forEach(builder::property);
        return builder;
    }

    private static ShardId expectedShard(String handle) {
        return ShardId.of("s" + handle.length() % 3);
    }

    @Nested
    class RegisteredThroughServiceLoader {

        @Test
        void unitsOfWorkLandOnTheShardThePolicyNamesAndFanOutsEqualTheOracle() {
            Map<String, List<Post>> data = authorsAndPosts(60);
            try (ShardedSessionFactory shards = builder(KEY_LENGTH, Author.class, Post.class).build();
                 ShardDatabases one = ShardDatabases.create(DatabaseKind.H2, 1);
                 ShardedSessionFactory oracle = oracle(one)) {
                write(shards, data);
                write(oracle, data);

                Map<String, Long> expectedAuthors = new TreeMap<>(Map.of("s0", 0L, "s1", 0L, "s2", 0L));
                Map<String, Long> expectedPosts = new TreeMap<>(expectedAuthors);
                data.forEach((handle, posts) -> {
                    assertThat(shards.shardFor(Author.class, handle)).contains(expectedShard(handle));
                    assertThat(count(expectedShard(handle).name(), "select count(*) from cp_author where id = ?",
                            handle)).as(handle).isEqualTo(1);
                    expectedAuthors.merge(expectedShard(handle).name(), 1L, Long::sum);
                    expectedPosts.merge(expectedShard(handle).name(), (long) posts.size(), Long::sum);
                });
                assertThat(rowsPerShard("cp_author")).isEqualTo(expectedAuthors);
                assertThat(rowsPerShard("cp_post")).isEqualTo(expectedPosts);
                assertThat(expectedPosts.values()).as("every shard holds posts").allMatch(n -> n > 0);

                String liked = "select count(p) from Post p where p.likes > 2";
                assertThat(shards.fanOut().createQuery(liked, Long.class).getSingleResult())
                        .isEqualTo(oracle.fanOut().createQuery(liked, Long.class).getSingleResult())
                        .isPositive();
                String perAuthor = "select p.authorHandle, count(p), sum(p.likes) from Post p "
                        + "group by p.authorHandle order by p.authorHandle";
                assertThat(rows(shards.fanOut().createQuery(perAuthor, Object[].class).getResultList()))
                        .isEqualTo(rows(oracle.fanOut().createQuery(perAuthor, Object[].class).getResultList()))
                        .isNotEmpty();
                String handles = "select a.handle from Author a order by a.handle";
                assertThat(shards.fanOut().createQuery(handles, String.class).getResultList())
                        .isEqualTo(oracle.fanOut().createQuery(handles, String.class).getResultList())
                        .hasSize(60);

                for (String handle : List.copyOf(data.keySet()).subList(0, 10)) {
                    var ofOne = shards.fanOut().createQuery(
                            "select count(p) from Post p where p.authorHandle = :h", Long.class).setParameter("h", handle);
                    assertThat(ofOne.targetShards()).as("a key predicate prunes by the policy")
                            .isEqualTo(Set.of(expectedShard(handle)));
                    assertThat(ofOne.getSingleResult()).isEqualTo(oracle.fanOut().createQuery(
                            "select count(p) from Post p where p.authorHandle = :h", Long.class)
                            .setParameter("h", handle).getSingleResult());
                }
            }
        }

        @Test
        void theSamePolicyGivenAsAnObjectToTheBuilderRoutesAlike() {
            Map<String, Object> map = Map.of("atomicshards.virtual_shards", "6",
                    "atomicshards.virtual_shard_map", "0-0=s0,1-1=s1,2-5=s2");
            try (ShardedSessionFactory shards = builder(map, Author.class, Post.class)
                    .policy(Author.class, Policies.of(new KeyLengthSelection(3))).build()) {
                for (String handle : List.of("a", "ab", "abc", "abcd", "abcde")) {
                    shards.inUnit(Author.class, handle, session -> session.persist(new Author(handle, handle)));
                    assertThat(shards.shardFor(Author.class, handle)).contains(expectedShard(handle));
                }
            }
        }
    }

    @Nested
    class RegisteredWithTheBuilder {

        @Test
        void aPolicyRegisteredWithTheBuilderIsNamedInTheSettings() {
            Map<String, Object> settings = Map.of("atomicshards.virtual_shards", "3",
                    "atomicshards.unit.Author.policy", "first_letter");
            try (ShardedSessionFactory shards = builder(settings, Author.class, Post.class)
                    .selectionPolicy(new FirstLetterSelection()).build()) {
                for (String handle : List.of("ant", "bee", "cat", "dog")) {
                    shards.inUnit(Author.class, handle, session -> session.persist(new Author(handle, handle)));
                    ShardId expected = ShardId.of("s" + handle.charAt(0) % 3);
                    assertThat(shards.shardFor(Author.class, handle)).contains(expected);
                    assertThat(count(expected.name(), "select count(*) from cp_author where id = ?", handle))
                            .isEqualTo(1);
                }
            }
        }

        @Test
        void withoutTheRegistrationItsNameIsUnknown() {
            Map<String, Object> settings = Map.of("atomicshards.unit.Author.policy", "first_letter");
            assertThatThrownBy(() -> builder(settings, Author.class, Post.class).build())
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("Setting 'atomicshards.unit.Author.policy' has value 'first_letter'. Fix: "
                            + "use one of [hash, modulo, range, consistent_hash, lookup, round_robin, snowflake, "
                            + "key_length]");
        }
    }

    @Nested
    class Misconfiguration {

        @ParameterizedTest(name = "{0}={1}")
        @CsvSource(delimiter = '|', value = {
                "modulus | 0   | Setting 'atomicshards.unit.Author.modulus' has value '0': it is not a positive whole number. Fix: e.g. 6",
                "modulus | two | Setting 'atomicshards.unit.Author.modulus' has value 'two': it is not a positive whole number",
                "modulus | 7   | Setting 'atomicshards.unit.Author.modulus' has value '7': there are only 6 virtual shards, so some lengths would name none. Fix: use at most 6",
                "modulo  | 3   | Setting 'atomicshards.unit.Author.modulo' is not an option of policy key_length. Fix: remove it"})
        void aBadOptionFailsTheBootNamingTheSettingAndTheFix(String option, String value, String message) {
            Map<String, Object> settings = new LinkedHashMap<>(KEY_LENGTH);
            settings.put("atomicshards.unit.Author." + option, value);
            assertThatThrownBy(() -> builder(settings, Author.class, Post.class).build())
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining(message);
        }

        @Test
        void aPolicyThatDoesNotFitTheUnitsKeyFailsTheBoot() {
            Map<String, Object> settings = Map.of("atomicshards.unit.User.policy", "key_length");
            assertThatThrownBy(() -> builder(settings, Fixtures.MODEL).build())
                    .isInstanceOf(ShardConfigurationException.class)
                    .hasMessageContaining("Setting 'atomicshards.unit." + User.class.getName()
                            + ".policy' has value 'key_length' but unit " + User.class.getName() + " has a Long key");
        }
    }

    private ShardedSessionFactory oracle(ShardDatabases one) {
        ShardedSessionFactoryBuilder builder = AtomicShards.configure().annotatedClasses(Author.class, Post.class)
                .schemaAction("create");
        one.settings().forEach(builder::property);
        return builder.catalog(one.newCatalogUrl()).build();
    }

    /** Authors with random handles of 1 to 20 letters, each with 0 to 4 posts. */
    private static Map<String, List<Post>> authorsAndPosts(int authors) {
        Random random = new Random(9);
        Map<String, List<Post>> data = new LinkedHashMap<>();
        long postId = 1;
        while (data.size() < authors) {
            char[] letters = new char[1 + random.nextInt(20)];
            for (int i = 0; i < letters.length; i++) {
                letters[i] = (char) ('a' + random.nextInt(26));
            }
            String handle = new String(letters);
            if (data.containsKey(handle)) {
                continue;
            }
            List<Post> posts = new ArrayList<>();
            for (int n = random.nextInt(5); n > 0; n--) {
                posts.add(new Post(postId++, handle, random.nextInt(10)));
            }
            data.put(handle, posts);
        }
        return data;
    }

    private static void write(ShardedSessionFactory shards, Map<String, List<Post>> data) {
        data.forEach((handle, posts) -> shards.inUnit(Author.class, handle, session -> {
            session.persist(new Author(handle, "author " + handle));
            posts.forEach(post -> session.persist(new Post(post.getId(), handle, post.getLikes())));
        }));
    }

    private static List<List<Object>> rows(List<Object[]> rows) {
        return rows.stream().map(row -> Arrays.asList(row)).toList();
    }

    private Map<String, Long> rowsPerShard(String table) {
        Map<String, Long> rows = new TreeMap<>();
        for (String shard : List.of("s0", "s1", "s2")) {
            rows.put(shard, count(shard, "select count(*) from " + table));
        }
        return rows;
    }

    private long count(String shard, String sql, Object... parameters) {
        try (Connection c = dbs.connect(shard); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
