/**
 * Implementation of the runtime. Private: may change in any release; integrate through the API and {@code spi}.
 */
package org.atomicshards.hibernate.internal;
