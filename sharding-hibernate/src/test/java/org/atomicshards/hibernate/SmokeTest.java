package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import org.atomicshards.hibernate.model.Country;
import org.atomicshards.hibernate.model.Photo;
import org.atomicshards.hibernate.model.Status;
import org.atomicshards.hibernate.model.User;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.junit.jupiter.api.Test;

class SmokeTest {

    @Test
    void boots() {
        try (ShardDatabases dbs = ShardDatabases.create(DatabaseKind.H2, 2)) {
            var builder = AtomicShards.configure().annotatedClasses(User.class, Status.class, Photo.class, Country.class)
                    .schemaAction("create");
            dbs.settings().forEach(builder::property);
            try (ShardedSessionFactory shards = builder.build()) {
                shards.persist(new User(1L, "a@x"));
                shards.inUnit(User.class, 1L, s -> {
                    User u = s.find(User.class, 1L);
                    s.persist(new Status(u, "hi"));
                    s.persist(new Photo(1L, "url"));
                });
                assertThat(shards.find(User.class, 1L).getEmail()).isEqualTo("a@x");
                System.out.println(shards.router().routingOf(Photo.class).orElseThrow().shardKeyPath(Photo.class));
                System.out.println(shards.router().routingOf(Status.class).orElseThrow().shardKeyPath(Status.class));
            }
        }
    }
}
