package org.atomicshards.model;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The resolved atomic units of a model and its reference data: what the annotation processor writes as routing
 * metadata ({@link RoutingMetadata}) and what the runtime routes by. Immutable.
 */
public final class UnitModel {

    private static final UnitModel EMPTY = new UnitModel(List.of(), Set.of());

    private final Map<String, Unit> unitsByRoot;
    private final Map<String, Unit> unitsByEntity;
    private final Set<String> referenceData;

    private UnitModel(Collection<Unit> units, Collection<String> referenceData) {
        Map<String, Unit> byRoot = new LinkedHashMap<>();
        Map<String, Unit> byEntity = new LinkedHashMap<>();
        for (Unit unit : units) {
            if (byRoot.put(unit.root(), unit) != null) {
                throw new IllegalArgumentException("Atomic unit " + unit.root() + " is listed twice");
            }
            for (UnitMember member : unit.members()) {
                Unit other = byEntity.put(member.entity(), unit);
                if (other != null) {
                    throw new IllegalArgumentException("Entity " + member.entity() + " is a member of two units: "
                            + other.root() + " and " + unit.root());
                }
            }
        }
        for (String entity : referenceData) {
            Unit unit = byEntity.get(entity);
            if (unit != null) {
                throw new IllegalArgumentException("Entity " + entity + " is both reference data and a member of unit "
                        + unit.root());
            }
        }
        this.unitsByRoot = Collections.unmodifiableMap(byRoot);
        this.unitsByEntity = Collections.unmodifiableMap(byEntity);
        this.referenceData = Collections.unmodifiableSet(new LinkedHashSet<>(referenceData));
    }

    public static UnitModel empty() {
        return EMPTY;
    }

    /**
     * @throws IllegalArgumentException if a root is listed twice, an entity is in two units, or an entity is
     *                                  both a member and reference data
     */
    public static UnitModel of(Collection<Unit> units, Collection<String> referenceData) {
        return new UnitModel(units, referenceData);
    }

    public Collection<Unit> units() {
        return unitsByRoot.values();
    }

    /** The unit whose root is {@code rootClass}. */
    public Optional<Unit> unit(String rootClass) {
        return Optional.ofNullable(unitsByRoot.get(rootClass));
    }

    /** The unit {@code entity} belongs to, as root or member; empty for reference data and unknown classes. */
    public Optional<Unit> unitOf(String entity) {
        return Optional.ofNullable(unitsByEntity.get(entity));
    }

    public Set<String> referenceData() {
        return referenceData;
    }

    public boolean isReferenceData(String entity) {
        return referenceData.contains(entity);
    }

    /**
     * This model together with {@code other} (for example the metadata of two jars).
     *
     * @throws IllegalArgumentException if the two disagree: the same root described differently, an entity in two
     *                                  units, or an entity both sharded and reference data
     */
    public UnitModel merge(UnitModel other) {
        List<Unit> units = new ArrayList<>(units());
        for (Unit unit : other.units()) {
            Unit mine = unitsByRoot.get(unit.root());
            if (mine == null) {
                units.add(unit);
            } else if (!mine.equals(unit)) {
                throw new IllegalArgumentException("Atomic unit " + unit.root() + " is described differently: "
                        + mine + " and " + unit);
            }
        }
        Set<String> reference = new LinkedHashSet<>(referenceData);
        reference.addAll(other.referenceData);
        return new UnitModel(units, reference);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof UnitModel that
                && List.copyOf(units()).equals(List.copyOf(that.units()))
                && referenceData.equals(that.referenceData);
    }

    @Override
    public int hashCode() {
        return List.copyOf(units()).hashCode() * 31 + referenceData.hashCode();
    }

    @Override
    public String toString() {
        return "UnitModel" + units() + ", reference data " + referenceData;
    }
}
