/**
 * Contracts for integrators (Spring support, benchmarks, resharding) and for custom selection policies:
 * {@link org.atomicshards.hibernate.spi.SelectionPolicy} (one class per policy, registered in
 * {@code META-INF/services/org.atomicshards.hibernate.spi.SelectionPolicy} or with the builder, looked up in
 * {@link org.atomicshards.hibernate.spi.SelectionPolicies}), and the views it is given
 * ({@link org.atomicshards.hibernate.spi.PolicyOptions}, {@link org.atomicshards.hibernate.spi.UnitTopology}).
 * Stable within a minor release; everything under {@code internal} is private and may change without notice.
 *
 * <p>Guide: <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/user-guide.md#policies">your own policy</a>; where things go:
 * <a href="https://github.com/atomic-shards/atomic-shards/blob/main/docs/architecture.md#where-to-add-things">architecture</a>.
 */
package org.atomicshards.hibernate.spi;
