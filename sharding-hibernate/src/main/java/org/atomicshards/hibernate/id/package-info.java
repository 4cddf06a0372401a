/**
 * Shard-safe id generators for Hibernate ({@code @IdGeneratorType}): ids unique across all shards, unlike database
 * identity or sequence columns, which collide between shards.
 */
package org.atomicshards.hibernate.id;
