/**
 * The one rule book for atomic units, shared by the annotation processor and the runtime (JDK only).
 *
 * <ul>
 *   <li><b>Describe</b> a model neutrally: {@link org.atomicshards.model.EntityDescription} and
 *       {@link org.atomicshards.model.AttributeDescription} (built with builders), collected in a
 *       {@link org.atomicshards.model.ModelDescription}. Each element may carry an opaque {@code source} handle
 *       that comes back in violations, so a tool can point at the exact element.
 *   <li><b>Check</b> it: {@link org.atomicshards.model.AtomicUnitRules#check} returns an
 *       {@link org.atomicshards.model.AtomicUnitCheck}: a {@link org.atomicshards.model.ValidationReport} of
 *       {@link org.atomicshards.model.Violation}s (each with its {@link org.atomicshards.model.Message} code,
 *       text, entity, source and {@link org.atomicshards.model.Site}) and the resolved
 *       {@link org.atomicshards.model.UnitModel}.
 *   <li><b>Store</b> the resolved units: {@link org.atomicshards.model.RoutingMetadata} writes and reads the
 *       versioned {@code META-INF/atomic-shards/units.properties} resource (the format is documented there).
 * </ul>
 */
package org.atomicshards.model;
