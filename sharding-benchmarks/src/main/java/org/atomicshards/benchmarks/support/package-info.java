/**
 * Shared set-up for the benchmarks: in-memory H2 shard sets, fast JDBC data loading, a statement-delaying
 * {@link javax.sql.DataSource}, and the plain Hibernate and ShardingSphere-JDBC factories the baselines run on.
 */
package org.atomicshards.benchmarks.support;
