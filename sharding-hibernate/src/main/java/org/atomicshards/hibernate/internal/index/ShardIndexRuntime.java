package org.atomicshards.hibernate.internal.index;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.atomicshards.hibernate.IndexReport;
import org.atomicshards.hibernate.ShardConfigurationException;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardIndexException;
import org.atomicshards.hibernate.ShardIndexes;
import org.atomicshards.hibernate.ShardingSettings;
import org.atomicshards.hibernate.internal.connection.ShardPools;
import org.atomicshards.hibernate.internal.directory.CachedShardDirectory;
import org.atomicshards.hibernate.internal.reshard.fence.OwnershipFence;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.schema.PerShardSchema;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.tool.schema.Action;

/**
 * The indexes of one sharded factory: the write listener (registered while Hibernate boots, active once the factory
 * is built), the look-ups, the shard choice of queries on indexed attributes, and the index tables of the shard
 * schema. Writes and look-ups of a factory without indexes pass through untouched.
 */
public final class ShardIndexRuntime implements ShardIndexes, PerShardSchema.LibraryTables {

    private final IndexWrites writes = new IndexWrites();
    private volatile IndexDefinitions definitions;
    private volatile IndexLookups lookups;
    private volatile IndexMaintenance maintenance;

    /** The listener to register for PRE_INSERT, PRE_UPDATE, PRE_DELETE and PRE_UPSERT. */
    public IndexWrites writes() {
        return writes;
    }

    /** Reads the indexes of the built factory and starts keeping them. */
    public void start(SessionFactoryImplementor sessionFactory, ShardRouterImpl router,
                      CachedShardDirectory directory, ShardPools pools, OwnershipFence fence) {
        long claimTimeout = claimTimeout(sessionFactory);
        IndexDefinitions read = IndexDefinitions.read(sessionFactory, router);
        IndexShards shards = new IndexShards(directory, pools, fence);
        UnitReads units = new UnitReads(sessionFactory, fence, directory);
        IndexClaims claims = new IndexClaims(shards, units, claimTimeout);
        this.lookups = new IndexLookups(shards, units, claimTimeout);
        this.maintenance = new IndexMaintenance(router::shards, shards, units, claims);
        this.definitions = read;
        writes.activate(read, claims);
    }

    /** The factory's indexes, comma-separated; empty when it has none. */
    public String names() {
        IndexDefinitions known = definitions;
        return known == null ? "" : String.join(", ", known.all().stream().map(IndexDefinition::name).toList());
    }

    @Override
    public void apply(Connection connection, Action action) throws SQLException {
        IndexDefinitions known = definitions;
        if (known == null || known.isEmpty()) {
            return;
        }
        switch (action) {
            case CREATE -> {
                IndexTable.drop(connection);
                IndexTable.create(connection);
            }
            case CREATE_ONLY, UPDATE -> IndexTable.create(connection);
            case DROP -> IndexTable.drop(connection);
            default -> { }
        }
    }

    @Override
    public <T> List<T> find(Class<T> type, String attribute, Object value) {
        return findAll(type, attribute, value == null ? List.of() : List.of(value));
    }

    @Override
    public <T> List<T> findAll(Class<T> type, String attribute, Collection<?> values) {
        IndexDefinition index = definitions().require(type, attribute);
        return lookups.find(index, type, converted(index, values));
    }

    @Override
    public <T> Optional<T> findUnique(Class<T> type, String attribute, Object value) {
        IndexDefinition index = definitions().require(type, attribute);
        if (!index.unique()) {
            throw new ShardIndexException("findUnique on " + index.name() + ", which is not a unique index. Fix: "
                    + "use find, or declare @ShardIndex(unique = true)");
        }
        List<T> found = find(type, attribute, value);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    @Override
    public boolean exists(Class<?> type, String attribute, Object value) {
        return !find(type, attribute, value).isEmpty();
    }

    @Override
    public IndexReport build(Class<?> type, String attribute) {
        return maintenance.build(definitions().require(type, attribute));
    }

    @Override
    public IndexReport verify(Class<?> type, String attribute, boolean clean) {
        return maintenance.verify(definitions().require(type, attribute), clean);
    }

    /**
     * The shards that may hold rows of {@code type} whose {@code attribute} has one of {@code values}: those of the
     * units the values' entries name. Empty when the attribute has no index or a value cannot be of its type (then
     * the caller cannot narrow anything).
     */
    public Optional<Set<ShardId>> shardsFor(Class<?> type, String attribute, Collection<?> values) {
        IndexDefinitions known = definitions;
        if (known == null) {
            return Optional.empty();
        }
        Optional<IndexDefinition> index = known.of(type, attribute);
        if (index.isEmpty()) {
            return Optional.empty();
        }
        List<Object> converted = new ArrayList<>();
        for (Object value : values) {
            Object typed = convert(value, index.get().valueType());
            if (typed == null) {
                return Optional.empty();
            }
            converted.add(typed);
        }
        return Optional.of(new LinkedHashSet<>(lookups.entries(index.get(), converted).keysByShard().keySet()));
    }

    private IndexDefinitions definitions() {
        IndexDefinitions known = definitions;
        if (known == null) {
            throw new IllegalStateException("The sharded session factory has not finished booting");
        }
        return known;
    }

    private static List<Object> converted(IndexDefinition index, Collection<?> values) {
        List<Object> converted = new ArrayList<>();
        for (Object value : values) {
            if (value == null) {
                continue; // = null matches no row
            }
            Object typed = convert(value, index.valueType());
            if (typed == null) {
                throw new ShardIndexException("A value of class " + value.getClass().getName() + " for index "
                        + index.name() + ", which holds " + index.valueType().getName() + " values");
            }
            converted.add(typed);
        }
        return converted;
    }

    /** {@code value} as the attribute's type (an integral number of another width converted exactly), or null. */
    static Object convert(Object value, Class<?> type) {
        if (value == null) {
            return null;
        }
        if (type.isInstance(value)) {
            return value;
        }
        if (!(value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger)) {
            return null;
        }
        BigInteger number = value instanceof BigInteger big ? big : BigInteger.valueOf(((Number) value).longValue());
        try {
            if (type == Long.class) {
                return number.longValueExact();
            }
            if (type == Integer.class) {
                return number.intValueExact();
            }
            if (type == Short.class) {
                return number.shortValueExact();
            }
            if (type == Byte.class) {
                return number.byteValueExact();
            }
            if (type == BigInteger.class) {
                return number;
            }
        } catch (ArithmeticException outOfRange) {
            return null;
        }
        return null;
    }

    private static long claimTimeout(SessionFactoryImplementor sessionFactory) {
        Object value = sessionFactory.getProperties().get(ShardingSettings.INDEX_CLAIM_TIMEOUT);
        if (value == null) {
            return ShardingSettings.DEFAULT_INDEX_CLAIM_TIMEOUT;
        }
        try {
            long millis = Long.parseLong(value.toString().trim());
            if (millis < 2_000) {
                throw new NumberFormatException();
            }
            return millis;
        } catch (NumberFormatException e) {
            throw new ShardConfigurationException("Setting '" + ShardingSettings.INDEX_CLAIM_TIMEOUT + "' has value '"
                    + value + "', which is not a number of milliseconds >= 2000. Fix: e.g. "
                    + ShardingSettings.INDEX_CLAIM_TIMEOUT + "=" + ShardingSettings.DEFAULT_INDEX_CLAIM_TIMEOUT);
        }
    }
}
