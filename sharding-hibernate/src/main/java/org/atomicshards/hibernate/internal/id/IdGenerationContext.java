package org.atomicshards.hibernate.internal.id;

import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;

/**
 * What the shard-safe id generators need from the sharded factory they run in, found through Hibernate's
 * connection provider. Implemented by the factory's runtime, so that the generators need not know it.
 */
public interface IdGenerationContext {

    /** The factory's routing model; never null once the factory has booted. */
    ShardRouterImpl router();

    /** The factory's key generators; never null once the factory has booted. */
    KeyGenerators keyGenerators();
}
