package org.atomicshards.spring.internal;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.persistence.metamodel.EntityType;
import org.atomicshards.hibernate.ShardId;
import org.atomicshards.hibernate.ShardedSessionFactory;
import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.spi.UnitRouting;

/**
 * Finds the shard of a unit key for Spring scopes: the unit named by the caller, or the application's only unit, or
 * the unit of an entity passed as the key.
 */
public final class UnitResolver {

    private final ShardedSessionFactory shards;
    private final List<Class<?>> roots;

    public UnitResolver(ShardedSessionFactory shards) {
        this.shards = shards;
        Set<Class<?>> found = new LinkedHashSet<>();
        for (EntityType<?> entity : shards.sessionFactory().getMetamodel().getEntities()) {
            shards.router().routingOf(entity.getJavaType()).map(UnitRouting::root).ifPresent(found::add);
        }
        this.roots = List.copyOf(found);
    }

    /**
     * The shard holding {@code key} (a key value, or an entity of the unit whose key is read), confirmed on its
     * ownership fence for a key value ({@code ShardedSessionFactory.shardHolding}); empty when a lookup or round-robin
     * key was never placed.
     */
    public Optional<ShardId> shardFor(Class<?> unit, Object key) {
        if (key != null && shards.router().routingOf(org.hibernate.Hibernate.getClass(key)).isPresent()) {
            return shards.shardForWrite(key);
        }
        return shards.shardHolding(unit, key);
    }

    /** The only atomic unit's root. */
    public Class<?> onlyUnit() {
        if (roots.size() != 1) {
            throw new UnroutableKeyException("This application has " + roots.size() + " atomic units "
                    + roots.stream().map(Class::getSimpleName).toList() + ", so a key alone does not say which. Fix: "
                    + "name the unit, e.g. @ShardKeyParam(unit = Customer.class) or callInUnit(Customer.class, key, ..)");
        }
        return roots.get(0);
    }
}
