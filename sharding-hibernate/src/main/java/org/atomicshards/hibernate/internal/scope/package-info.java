/**
 * The shard the current thread is bound to, and why ({@link org.atomicshards.hibernate.internal.scope.ShardBinding}):
 * units of work, explicit scopes and replications of every module (the Spring module included) share this one
 * concept, its one cross-shard check and its one message. Internal to Atomic Shards.
 */
package org.atomicshards.hibernate.internal.scope;
