/** The routing guards: Hibernate event listeners that reject a write before it reaches the wrong shard. */
package org.atomicshards.hibernate.internal.guard;
