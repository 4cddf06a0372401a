/**
 * Shard-safe id generators for Hibernate ({@code @IdGeneratorType}): ids unique across all shards, unlike database
 * identity or sequence columns, which collide between shards.
 *
 * <p>Guide: <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/user-guide.md#ids-unique-across-shards">ids unique across shards</a>.
 */
package org.atomicshards.hibernate.id;
