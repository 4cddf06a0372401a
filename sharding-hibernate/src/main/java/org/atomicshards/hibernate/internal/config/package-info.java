/** Reading and validating the settings into a frozen topology and per-unit policies. */
package org.atomicshards.hibernate.internal.config;
