package org.atomicshards.hibernate.internal.boot;

import static org.assertj.core.api.Assertions.assertThat;

import org.atomicshards.model.AtomicUnitRules;
import org.atomicshards.model.AttributeDescription;
import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.ModelDescription;
import org.atomicshards.model.Violation;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class ModelDescriberTest {

    @Nested
    class MultiColumnKeys {

        private SessionFactoryImplementor sessionFactory;

        @BeforeEach
        void boot() {
            sessionFactory = JoinColumnsModel.sessionFactory();
        }

        @AfterEach
        void close() {
            sessionFactory.close();
        }

        @Test
        void anAssociationWhoseJoinColumnsAreAllNotUpdatableIsNotUpdatable() {
            AttributeDescription warehouse = attribute(new ModelDescriber(sessionFactory).describe(), "warehouse");

            assertThat(warehouse.isShardKey()).isTrue();
            assertThat(warehouse.isUpdatable()).isFalse();
            assertThat(warehouse.isInsertable()).isTrue();
        }

        @Test
        void anAssociationWithUpdatableJoinColumnsIsUpdatable() {
            AttributeDescription previous = attribute(new ModelDescriber(sessionFactory).describe(), "previousWarehouse");

            assertThat(previous.isUpdatable()).isTrue();
        }

        @Test
        void theNotUpdatableMultiColumnShardKeyRaisesNoWarning() {
            ModelDescription description = new ModelDescriber(sessionFactory).describe();

            assertThat(AtomicUnitRules.check(description).report().violations()).extracting(Violation::text)
                    .noneMatch(text -> text.contains("[SHARD-016]"));
        }

        private AttributeDescription attribute(ModelDescription description, String name) {
            EntityDescription shelf = description.entities().stream()
                    .filter(entity -> entity.className().equals(JoinColumnsModel.Shelf.class.getName())).findFirst().orElseThrow();
            return shelf.attributes().stream().filter(attribute -> attribute.name().equals(name)).findFirst().orElseThrow();
        }
    }
}
