package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.function.Supplier;

import org.atomicshards.hibernate.model.User;

/**
 * The scenarios of the URL-secrets tests, shared by H2 (default build) and the real-database ITs: a factory whose
 * shard and catalog URLs carry their passwords boots, runs units of work, a find and a fan-out with every logger at
 * DEBUG/TRACE, and the password shows in no log line, no setting and no exception message.
 */
final class UrlSecretScenarios {

    private UrlSecretScenarios() {
    }

    /**
     * Boots the factory, writes and reads eight users through units of work and a fan-out, and returns all the
     * log output; asserts that the secrets appear nowhere (logs, Hibernate's settings).
     */
    static String bootWorkAndFanOut(Supplier<ShardedSessionFactoryBuilder> builder, String... secrets) {
        try (LogCapture logs = new LogCapture()) {
            try (ShardedSessionFactory shards = builder.get().build()) {
                for (long key = 1; key <= 8; key++) {
                    long id = key;
                    shards.inUnit(User.class, id, session -> session.persist(new User(id, "user" + id + "@example.org")));
                }
                assertThat(shards.find(User.class, 5L).getEmail()).isEqualTo("user5@example.org");
                List<User> all = shards.fanOut().createQuery("select u from User u order by u.id", User.class).getResultList();
                assertThat(all).extracting(User::getId).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
                String properties = shards.sessionFactory().getProperties().toString();
                assertThat(properties).contains("atomicshards.shard.s0.url");
                assertNoSecret("SessionFactory.getProperties()", properties, secrets);
            }
            String logged = logs.all();
            assertThat(logged).as("Hibernate logged its settings at DEBUG (the capture works)").contains("HHH90020001");
            assertNoSecret("the log", logged, secrets);
            return logged;
        }
    }

    /** Boots (and, if the boot succeeds, runs a unit of work) expecting a failure; neither it nor the log shows a secret. */
    static Throwable failingConnection(Supplier<ShardedSessionFactoryBuilder> builder, String... secrets) {
        try (LogCapture logs = new LogCapture()) {
            Throwable failure = catchThrowable(() -> {
                try (ShardedSessionFactory shards = builder.get().build()) {
                    for (long key = 1; key <= 8; key++) {
                        long id = key;
                        shards.inUnit(User.class, id, session -> session.persist(new User(id, "u" + id)));
                    }
                }
            });
            assertThat(failure).as("the connection fails").isNotNull();
            assertNoSecret("the exception", LogCapture.stackTrace(failure), secrets);
            assertNoSecret("the log", logs.all(), secrets);
            return failure;
        }
    }

    static void assertNoSecret(String where, String text, String... secrets) {
        for (String secret : secrets) {
            int at = text.indexOf(secret);
            if (at >= 0) {
                int start = Math.max(text.lastIndexOf('\n', at) + 1, at - 200);
                int end = text.indexOf('\n', at);
                end = Math.min(end < 0 ? text.length() : end, at + secret.length() + 100);
                throw new AssertionError("The secret appears in " + where + ": ..."
                        + text.substring(start, end).replace(secret, "<SECRET>") + "...");
            }
        }
    }
}
