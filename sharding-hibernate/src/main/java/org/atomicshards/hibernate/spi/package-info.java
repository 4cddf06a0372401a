/**
 * Contracts for integrators (Spring support, benchmarks, custom policies). Stable within a minor release;
 * everything under {@code internal} is private and may change without notice.
 */
package org.atomicshards.hibernate.spi;
