/** One HikariCP pool per physical shard, Hibernate's multi-tenant connection provider over them, and the shard context. */
package org.atomicshards.hibernate.internal.connection;
