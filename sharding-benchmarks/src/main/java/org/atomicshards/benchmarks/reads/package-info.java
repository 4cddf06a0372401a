/**
 * The fan-out read queries (ORDER BY + LIMIT, streamed ORDER BY) behind one interface, with a single-database
 * side and the ShardingSphere-JDBC side; the data set they load and the checks that a merge is right.
 */
package org.atomicshards.benchmarks.reads;
