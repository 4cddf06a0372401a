package org.atomicshards.hibernate.internal.boot;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

import jakarta.persistence.Embeddable;
import jakarta.persistence.EmbeddedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.JoinColumns;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * A unit whose root has a two-column key, so members reach it through {@code @JoinColumns}: {@code Shelf.warehouse}
 * (the shard key, not updatable) and {@code Shelf.previousWarehouse} (updatable).
 */
final class JoinColumnsModel {

    private JoinColumnsModel() {
    }

    /** A plain Hibernate session factory on an in-memory H2 database mapping this model. */
    static SessionFactoryImplementor sessionFactory() {
        SessionFactory factory = new Configuration()
                .addAnnotatedClass(WarehouseId.class)
                .addAnnotatedClass(Warehouse.class)
                .addAnnotatedClass(Shelf.class)
                .setProperty("hibernate.connection.url", "jdbc:h2:mem:joincolumns-" + System.nanoTime())
                .setProperty("hibernate.connection.username", "sa")
                .setProperty("hibernate.connection.password", "")
                .setProperty("hibernate.hbm2ddl.auto", "none")
                .buildSessionFactory();
        return factory.unwrap(SessionFactoryImplementor.class);
    }

    @Embeddable
    public static class WarehouseId implements Serializable {
        private static final long serialVersionUID = 1L;
        String country;
        Integer number;

        @Override
        public boolean equals(Object other) {
            return other instanceof WarehouseId id && Objects.equals(country, id.country) && Objects.equals(number, id.number);
        }

        @Override
        public int hashCode() {
            return Objects.hash(country, number);
        }
    }

    @Entity(name = "Warehouse")
    @AtomicUnit
    public static class Warehouse {
        @EmbeddedId
        @ShardKey
        WarehouseId id;
        @OneToMany(mappedBy = "warehouse")
        List<Shelf> shelves;
    }

    @Entity(name = "Shelf")
    public static class Shelf {
        @Id
        Long id;
        @ManyToOne
        @ShardKey
        @JoinColumns({
                @JoinColumn(name = "warehouse_country", referencedColumnName = "country", updatable = false),
                @JoinColumn(name = "warehouse_number", referencedColumnName = "number", updatable = false)})
        Warehouse warehouse;
        @ManyToOne
        @JoinColumns({
                @JoinColumn(name = "previous_country", referencedColumnName = "country"),
                @JoinColumn(name = "previous_number", referencedColumnName = "number")})
        Warehouse previousWarehouse;
    }
}
