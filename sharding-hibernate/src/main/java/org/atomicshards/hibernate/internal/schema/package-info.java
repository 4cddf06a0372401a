/** Hibernate's schema tooling run on every physical shard, one provided connection at a time. */
package org.atomicshards.hibernate.internal.schema;
