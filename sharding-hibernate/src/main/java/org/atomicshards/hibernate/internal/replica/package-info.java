/** Read replicas: which replica of a shard a read may use, measured on the replica before the read. */
package org.atomicshards.hibernate.internal.replica;
