/**
 * Wiring into Hibernate's bootstrap: the service contributor that installs the shard connection provider and tenant
 * resolver, the integrator that registers the guards, and the runtime assembled when the session factory is built.
 */
package org.atomicshards.hibernate.internal.boot;
