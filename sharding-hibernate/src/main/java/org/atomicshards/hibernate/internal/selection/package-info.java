/**
 * The built-in selection policies, one class each, implementing {@link org.atomicshards.hibernate.spi.SelectionPolicy}
 * like a user's policy would. They are registered in
 * {@link org.atomicshards.hibernate.spi.SelectionPolicies}; to add a built-in, add a class here and one line there.
 */
package org.atomicshards.hibernate.internal.selection;
