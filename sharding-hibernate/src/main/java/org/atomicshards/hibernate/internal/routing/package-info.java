/** Key hashing, the consistent-hash ring, per-policy key→shard mapping and the router built from them. */
package org.atomicshards.hibernate.internal.routing;
