package org.atomicshards.model.internal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.atomicshards.model.EntityDescription;
import org.atomicshards.model.Message;
import org.atomicshards.model.Site;
import org.atomicshards.model.ValidationReport;
import org.atomicshards.model.Violation;

/**
 * Places every entity hierarchy in an atomic unit and reports what cannot be placed.
 *
 * <p>How entities are placed:
 * <ol>
 *   <li>a root ({@code @AtomicUnit}) is its own unit;
 *   <li>an entity whose {@code @ShardKey} is a to-one association to a root belongs to that root's unit; one whose
 *       {@code @ShardKey} is a value of a type that keys exactly one unit belongs to that unit;
 *   <li>every other entity belongs to the unit that reaches it through the fewest associations (in either
 *       direction, never through reference data, roots or entities placed by rule 2; an entity placed by its key
 *       association counts as one step from its root). If two units reach it at the same distance, it is
 *       reachable from two units: an error.
 * </ol>
 * An association between entities of two different units is then a cross-unit association; one from reference
 * data to a sharded entity is an error; an entity no unit reaches and that is not reference data is in no unit.
 */
final class UnitResolver {

    /** The report and the placement. */
    record Result(ValidationReport report, UnitAssignment assignment) {
    }

    private record Step(Edge edge, String neighbour) {
    }

    private final ModelIndex index;
    private final Map<String, RootKey> rootKeys;
    private final Map<String, List<Step>> adjacency = new LinkedHashMap<>();
    private final Map<String, String> owners = new LinkedHashMap<>();
    private final Map<String, Edge> pulledBy = new LinkedHashMap<>();
    private final Map<String, List<UnitAssignment.Reach>> conflicts = new LinkedHashMap<>();

    private UnitResolver(ModelIndex index, Map<String, RootKey> rootKeys) {
        this.index = index;
        this.rootKeys = rootKeys;
    }

    static Result resolve(ModelIndex index, Map<String, RootKey> rootKeys) {
        return new UnitResolver(index, rootKeys).run();
    }

    private Result run() {
        for (Edge edge : index.edges()) {
            String from = index.topOf(edge.owner().className());
            String to = index.topOf(edge.target());
            if (!from.equals(to)) {
                adjacency.computeIfAbsent(from, key -> new ArrayList<>()).add(new Step(edge, to));
                adjacency.computeIfAbsent(to, key -> new ArrayList<>()).add(new Step(edge, from));
            }
        }
        List<String> firstLevelNodes = new ArrayList<>();
        for (String top : index.tops()) {
            if (index.isRoot(top)) {
                owners.put(top, top);
                firstLevelNodes.add(top);
            }
        }
        // Entities placed by a key association sit one step from their root; those placed by a key value alone
        // have no distance and start with the roots.
        List<String> secondLevel = new ArrayList<>();
        for (String top : index.tops()) {
            if (!index.isRoot(top) && !index.isReferenceData(top)) {
                anchor(top).ifPresent(placed -> (pulledBy.containsKey(placed) ? secondLevel : firstLevelNodes).add(placed));
            }
        }
        Set<String> visited = new HashSet<>(owners.keySet());
        List<String> frontier = firstLevelNodes;
        boolean firstLevel = true;
        while (!frontier.isEmpty() || firstLevel) {
            Map<String, Map<String, Edge>> reached = new LinkedHashMap<>();
            for (String node : frontier) {
                for (Step step : adjacency.getOrDefault(node, List.of())) {
                    if (!visited.contains(step.neighbour()) && !index.isReferenceData(step.neighbour())) {
                        reached.computeIfAbsent(step.neighbour(), key -> new LinkedHashMap<>())
                                .putIfAbsent(owners.get(node), step.edge());
                    }
                }
            }
            List<String> next = new ArrayList<>();
            reached.forEach((node, byRoot) -> {
                visited.add(node);
                if (byRoot.size() == 1) {
                    Map.Entry<String, Edge> only = byRoot.entrySet().iterator().next();
                    owners.put(node, only.getKey());
                    pulledBy.put(node, only.getValue());
                    next.add(node);
                } else {
                    List<UnitAssignment.Reach> reaches = new ArrayList<>();
                    byRoot.forEach((root, edge) -> reaches.add(new UnitAssignment.Reach(root, edge)));
                    conflicts.put(node, reaches);
                }
            });
            if (firstLevel) {
                next.addAll(secondLevel);
                firstLevel = false;
            }
            frontier = next;
        }
        UnitAssignment assignment = new UnitAssignment(owners, pulledBy, conflicts);
        return new Result(ValidationReport.of(violations(assignment)), assignment);
    }

    /** Places {@code top} by its own key (rule 2); returns it if placed. */
    private Optional<String> anchor(String top) {
        EntityDescription entity = index.entity(top);
        List<KeyAttribute> keys = ModelIndex.keys(entity);
        if (keys.size() != 1) {
            return Optional.empty();
        }
        KeyAttribute key = keys.get(0);
        if (key.isOwningToOne()) {
            String target = key.attribute().targetEntity();
            if (index.model().contains(target) && index.isRoot(index.topOf(target))) {
                owners.put(top, index.topOf(target));
                index.edges().stream()
                        .filter(edge -> edge.owner() == entity && edge.path().equals(key.path()))
                        .findFirst().ifPresent(edge -> pulledBy.put(top, edge));
                return Optional.of(top);
            }
        } else if (key.isValue()) {
            List<String> units = unitsKeyedBy(key.keyType());
            if (units.size() == 1) {
                owners.put(top, units.get(0));
                return Optional.of(top);
            }
        }
        return Optional.empty();
    }

    private List<String> unitsKeyedBy(String keyType) {
        return rootKeys.values().stream().filter(rootKey -> rootKey.keyType().equals(keyType)).map(RootKey::root).toList();
    }

    private List<Violation> violations(UnitAssignment assignment) {
        List<Violation> violations = new ArrayList<>();
        conflicts.forEach((top, reaches) -> {
            UnitAssignment.Reach first = reaches.get(0);
            UnitAssignment.Reach second = reaches.get(1);
            violations.add(Violation.of(Message.REACHABLE_FROM_TWO_UNITS, top, index.entity(top).source(), Site.ELEMENT,
                    top, first.root(), first.via().label(), second.root(), second.via().label(), top));
        });
        for (Edge edge : index.edges()) {
            String from = index.topOf(edge.owner().className());
            String to = index.topOf(edge.target());
            if (from.equals(to)) {
                continue;
            }
            Optional<String> fromUnit = assignment.ownerOf(from);
            Optional<String> toUnit = assignment.ownerOf(to);
            if (index.isReferenceData(from) && assignment.isSharded(to)) {
                String unit = toUnit.orElseGet(() -> conflicts.get(to).get(0).root());
                violations.add(Violation.of(Message.REFERENCE_DATA_REFERS_TO_SHARDED, edge.owner().className(),
                        edge.attribute().source(), Site.ASSOCIATION, edge.label(), edge.target(), unit, edge.target()));
            } else if (fromUnit.isPresent() && toUnit.isPresent() && !fromUnit.get().equals(toUnit.get())) {
                violations.add(Violation.of(Message.CROSS_UNIT_ASSOCIATION, edge.owner().className(),
                        edge.attribute().source(), Site.ASSOCIATION, edge.label(), fromUnit.get(), edge.target(),
                        toUnit.get(), suggestion(toUnit.get())));
            }
        }
        for (String top : index.tops()) {
            if (index.isReferenceData(top) || assignment.isSharded(top)) {
                continue;
            }
            EntityDescription entity = index.entity(top);
            List<KeyAttribute> keys = ModelIndex.keys(entity);
            List<String> units = keys.size() == 1 && keys.get(0).isValue() ? unitsKeyedBy(keys.get(0).keyType()) : List.of();
            if (units.size() > 1) {
                violations.add(Violation.of(Message.AMBIGUOUS_UNIT, top, entity.source(), Site.ELEMENT, top,
                        JavaTypes.readable(keys.get(0).keyType()), String.join(", ", units)));
            } else {
                violations.add(Violation.of(Message.ENTITY_IN_NO_UNIT, top, entity.source(), Site.ELEMENT, top));
            }
        }
        return violations;
    }

    /** {@code "a Long vendorId"} for a unit whose root is {@code Vendor}, keyed by {@code Long}. */
    private String suggestion(String root) {
        String simple = JavaTypes.simpleName(root);
        String attribute = simple.substring(0, 1).toLowerCase(Locale.ROOT) + simple.substring(1) + "Id";
        RootKey key = rootKeys.get(root);
        return key == null ? attribute : "a " + JavaTypes.readable(key.keyType()) + " " + attribute;
    }
}
