package org.atomicshards.hibernate.internal.session;

import java.util.List;

import org.atomicshards.hibernate.UnroutableKeyException;
import org.atomicshards.hibernate.internal.routing.ShardRouterImpl;
import org.atomicshards.hibernate.internal.routing.UnitRoutingImpl;

/** Finds the atomic unit an API call names, with the messages for a type or key that names none. */
final class UnitLookup {

    private final ShardRouterImpl router;

    UnitLookup(ShardRouterImpl router) {
        this.router = router;
    }

    /**
     * The unit of {@code type} (its root or a member).
     *
     * @throws UnroutableKeyException if the type belongs to no unit
     */
    UnitRoutingImpl unitOf(Class<?> type) {
        UnitRoutingImpl unit = router.unitOf(type);
        if (unit == null) {
            throw new UnroutableKeyException(type.getName() + " belongs to no atomic unit: it is not an @AtomicUnit "
                    + "root or a member carrying its @ShardKey. Known units: "
                    + router.units().stream().map(u -> u.root().getSimpleName()).sorted().toList());
        }
        return unit;
    }

    /**
     * The factory's only unit, for the calls that pass a key alone.
     *
     * @throws UnroutableKeyException if the factory has several units (or none)
     */
    UnitRoutingImpl onlyUnit() {
        List<UnitRoutingImpl> units = router.units();
        if (units.size() != 1) {
            throw new UnroutableKeyException("This factory has " + units.size() + " atomic units "
                    + units.stream().map(u -> u.root().getSimpleName()).sorted().toList()
                    + ", so a key alone does not say which. Fix: pass the unit's root class, e.g. inUnit(Customer.class, key, ...)");
        }
        return units.get(0);
    }
}
