package org.atomicshards.cli.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.atomicshards.hibernate.AtomicShards;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.ShardedSessionFactoryBuilder;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.boot.ShardingRuntime;
import org.atomicshards.hibernate.internal.config.SettingsReader;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.persister.entity.EntityPersister;

/**
 * The shards as the application sees them: one sharded session factory booted from the application's settings and
 * entity model, exactly as the runtime boots it, except that the tool never runs a schema action at boot (a settings
 * file saying {@code create-drop} must not wipe production) nor the application's migrations ({@code schema migrate}
 * runs them), and, for read-only commands, never creates or upgrades the catalog's tables and does not refuse to start
 * when a shard is down (so {@code status} can show it).
 */
public final class Cluster implements AutoCloseable {

    /** What the command will do with the shards. */
    public enum Access {
        /** status, verify: the catalog must already exist ({@code atomicshards.catalog.schema=validate}); shards may be down. */
        READ,
        /** schema: the catalog is prepared as the application would prepare it; every shard must be reachable. */
        ADMIN
    }

    private static final List<String> SCHEMA_ACTION_SETTINGS = List.of(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION,
            "javax.persistence.schema-generation.database.action", AvailableSettings.HBM2DDL_AUTO);

    private final ShardedSessionFactory shards;
    private final ShardingRuntime runtime;
    private final EntityModel model;
    private final ClassLoader previousContextLoader;

    private Cluster(ShardedSessionFactory shards, ShardingRuntime runtime, EntityModel model, ClassLoader previous) {
        this.shards = shards;
        this.runtime = runtime;
        this.model = model;
        this.previousContextLoader = previous;
    }

    /**
     * Boots the factory. The model is closed with the cluster.
     *
     * @throws org.atomicshards.hibernate.AtomicShardsException as the runtime throws it for bad settings, a bad
     *         model or an unreachable catalog
     */
    public static Cluster open(Map<String, Object> settings, EntityModel model, Access access) {
        Map<String, Object> all = new LinkedHashMap<>(settings);
        SCHEMA_ACTION_SETTINGS.forEach(all::remove);
        all.put(SettingsReader.SCHEMA_ACTION, "none");
        // nor the application's migrations (schema migrate runs them when told to)
        all.put(ShardingSettings.MIGRATIONS_AT_BOOT, "false");
        // the tool resumes an operation only when told to (its resume command), never in the background
        all.put(ShardingSettings.RESHARDING_AUTO_RESUME, "false");
        if (access == Access.READ) {
            all.put(ShardingSettings.CATALOG_SCHEMA, "validate");
            all.put(ShardingSettings.BOOT_CONNECTION_CHECK, "false");
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(model.classLoader());
        try {
            ShardedSessionFactoryBuilder builder = AtomicShards.configure();
            all.forEach(builder::property);
            builder.annotatedClasses(model.classes().toArray(Class<?>[]::new));
            ShardedSessionFactory shards = builder.build();
            ShardingRuntime runtime = factory(shards).getServiceRegistry()
                    .requireService(MultiTenantConnectionProvider.class).unwrap(ShardingRuntime.class);
            return new Cluster(shards, runtime, model, previous);
        } catch (RuntimeException | Error e) {
            thread.setContextClassLoader(previous);
            model.close();
            throw e;
        }
    }

    public ShardedSessionFactory shards() {
        return shards;
    }

    public ShardingRuntime runtime() {
        return runtime;
    }

    public ShardRouterImpl router() {
        return runtime.router();
    }

    /** The atomic units, ordered by root class name. */
    public List<UnitRoutingImpl> units() {
        List<UnitRoutingImpl> units = new ArrayList<>(router().units());
        units.sort(Comparator.comparing(UnitRoutingImpl::unitName));
        return units;
    }

    /**
     * The member types of a unit to count rows of: the root first, then the other members by name, leaving out a
     * subclass whose mapped superclass is also a member (its rows are counted with the superclass's).
     */
    public static List<Class<?>> countedMembers(UnitRoutingImpl unit) {
        List<Class<?>> members = new ArrayList<>();
        members.add(unit.root());
        unit.memberTypes().stream()
                .filter(type -> type != unit.root())
                .filter(type -> unit.memberTypes().stream().noneMatch(other -> other != type && other.isAssignableFrom(type)))
                .sorted(Comparator.comparing(Class::getName))
                .forEach(members::add);
        return members;
    }

    /**
     * The model's entity class named {@code name}: its full name, or its simple name when no other class of the model
     * shares it.
     *
     * @throws CliException (exit code {@link org.atomicshards.cli.ExitCodes#USAGE}) naming the classes there are
     */
    public Class<?> entityClass(String name) {
        List<Class<?>> matches = model.classes().stream()
                .filter(type -> type.getName().equals(name) || type.getSimpleName().equals(name)).toList();
        if (matches.size() == 1) {
            return matches.get(0);
        }
        List<String> names = model.classes().stream().map(Class::getName).sorted().toList();
        throw new CliException(org.atomicshards.cli.ExitCodes.USAGE, (matches.isEmpty() ? "No entity class "
                : "Several entity classes ") + "named " + name + " in the model. Fix: use one of " + names);
    }

    /** The reference-data entity classes of the model, by name. */
    public List<Class<?>> referenceData() {
        return model.classes().stream().filter(router()::isReferenceData)
                .sorted(Comparator.comparing(Class::getName)).toList();
    }

    /** Hibernate's entity name of a mapped class, for HQL. */
    public String entityName(Class<?> type) {
        return persister(type).getEntityName();
    }

    /** Hibernate's persister of a mapped class: its table and columns. */
    public EntityPersister persister(Class<?> type) {
        return factory(shards).getMappingMetamodel().getEntityDescriptor(type);
    }

    private static SessionFactoryImplementor factory(ShardedSessionFactory shards) {
        return shards.sessionFactory().unwrap(SessionFactoryImplementor.class);
    }

    @Override
    public void close() {
        try {
            shards.close();
        } finally {
            Thread.currentThread().setContextClassLoader(previousContextLoader);
            model.close();
        }
    }
}
