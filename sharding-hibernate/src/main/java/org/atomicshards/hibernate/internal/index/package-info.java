/**
 * Indexes of {@link org.atomicshards.annotations.ShardIndex} attributes: their entries on the shards
 * ({@link org.atomicshards.hibernate.internal.index.IndexTable}), the consistent-lookup protocol of writes
 * ({@link org.atomicshards.hibernate.internal.index.IndexWrites}, {@link org.atomicshards.hibernate.internal.index.IndexClaims}),
 * look-ups, builds and verifications. Internal: no compatibility promise.
 */
package org.atomicshards.hibernate.internal.index;
