package org.atomicshards.hibernate.internal.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;

import org.atomicshards.hibernate.AtomicShardsException;
import org.atomicshards.hibernate.id.SequenceBlockId;
import org.atomicshards.hibernate.id.SnowflakeId;
import org.atomicshards.hibernate.id.TimeOrderedUuidId;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The shard-safe generators in a session factory that is not sharded: those that need the shard directory fail
 * with a message naming the annotation and write nothing; the time-ordered UUID works anywhere; an assigned id is
 * always kept.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UnshardedFactoryGeneratorsTest {

    @Entity(name = "BlockNumbered")
    static class BlockNumbered {
        @Id @SequenceBlockId Long id;
    }

    @Entity(name = "SnowflakeNumbered")
    static class SnowflakeNumbered {
        @Id @SnowflakeId Long id;
    }

    @Entity(name = "UuidNumbered")
    static class UuidNumbered {
        @Id @TimeOrderedUuidId UUID id;
    }

    private SessionFactory factory;

    @BeforeAll
    void build() {
        factory = new Configuration()
                .addAnnotatedClass(BlockNumbered.class)
                .addAnnotatedClass(SnowflakeNumbered.class)
                .addAnnotatedClass(UuidNumbered.class)
                .setProperty("hibernate.connection.url", "jdbc:h2:mem:unsharded-generators;DB_CLOSE_DELAY=-1")
                .setProperty("hibernate.hbm2ddl.auto", "create-drop")
                .buildSessionFactory();
    }

    @AfterAll
    void close() {
        factory.close();
    }

    @Test
    void sequenceBlocksNeedAShardedFactoryAndWriteNothing() {
        assertThatThrownBy(() -> factory.inTransaction(session -> session.persist(new BlockNumbered())))
                .isInstanceOf(AtomicShardsException.class)
                .hasMessageContaining("@SequenceBlockId needs a sharded session factory");
        assertThat(rows("BlockNumbered")).isZero();
    }

    @Test
    void snowflakesNeedAShardedFactoryAndWriteNothing() {
        assertThatThrownBy(() -> factory.inTransaction(session -> session.persist(new SnowflakeNumbered())))
                .isInstanceOf(AtomicShardsException.class)
                .hasMessageContaining("@SnowflakeId needs a sharded session factory");
        assertThat(rows("SnowflakeNumbered")).isZero();
    }

    @Test
    void timeOrderedUuidsWorkAnywhere() {
        UuidNumbered first = new UuidNumbered();
        UuidNumbered second = new UuidNumbered();
        factory.inTransaction(session -> {
            session.persist(first);
            session.persist(second);
        });
        assertThat(first.id.version()).isEqualTo(7);
        assertThat(second.id).isNotEqualTo(first.id);
    }

    @Test
    void anAssignedIdIsKept() {
        BlockNumbered assigned = new BlockNumbered();
        assigned.id = 4242L;
        factory.inTransaction(session -> session.persist(assigned));
        BlockNumbered found = factory.fromTransaction(session -> session.find(BlockNumbered.class, 4242L));
        assertThat(found).isNotNull();
    }

    private long rows(String entity) {
        return factory.fromTransaction(session ->
                session.createSelectionQuery("select count(e) from " + entity + " e", Long.class).getSingleResult());
    }
}
