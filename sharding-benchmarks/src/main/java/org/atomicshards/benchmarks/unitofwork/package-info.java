/**
 * Routing overhead: the same single-shard unit of work through plain Hibernate on one database, through
 * ShardingSphere-JDBC on 4 shards and through Atomic Shards on 4 shards.
 */
package org.atomicshards.benchmarks.unitofwork;
