/**
 * Contracts for integrators (Spring support, benchmarks, resharding) and for custom selection policies:
 * {@link org.atomicshards.hibernate.spi.SelectionPolicy} (one class per policy, registered in
 * {@code META-INF/services/org.atomicshards.hibernate.spi.SelectionPolicy} or with the builder, looked up in
 * {@link org.atomicshards.hibernate.spi.SelectionPolicies}), and the views it is given
 * ({@link org.atomicshards.hibernate.spi.PolicyOptions}, {@link org.atomicshards.hibernate.spi.UnitTopology}).
 * Stable within a minor release; everything under {@code internal} is private and may change without notice.
 */
package org.atomicshards.hibernate.spi;
