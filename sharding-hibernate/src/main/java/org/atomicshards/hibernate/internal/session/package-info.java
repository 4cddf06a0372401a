/** The public factory's implementation: units of work, routed find and persist, asking shards, replication. */
package org.atomicshards.hibernate.internal.session;
