package org.atomicshards.hibernate;

/**
 * A unit of work gave an entity a value of a unique {@link org.atomicshards.annotations.ShardIndex} that another
 * atomic unit holds (or is committing right now). Thrown while the unit of work flushes, before it commits: nothing of
 * the unit of work was committed, and its transaction is rolled back.
 *
 * <p>The message names the entity, the attribute and the value's class, never the value (an e-mail address, a
 * national id number...). Running the unit of work again fails the same way until the other unit lets the value go;
 * a unit of work that crashed while taking a value holds it for at most
 * {@value org.atomicshards.hibernate.ShardingSettings#DEFAULT_INDEX_CLAIM_TIMEOUT} ms by default
 * ({@link ShardingSettings#INDEX_CLAIM_TIMEOUT}).
 */
public class DuplicateIndexValueException extends ShardIndexException {

    private static final long serialVersionUID = 1L;

    private final String entity;
    private final String attribute;
    private final String valueType;

    public DuplicateIndexValueException(String entity, String attribute, Class<?> valueType) {
        super("Another atomic unit already holds this value of the unique index " + entity + "." + attribute
                + " (a " + valueType.getName() + "; the value is not shown). Nothing of this unit of work was "
                + "committed. Fix: choose another value, or free it in the unit that holds it first");
        this.entity = entity;
        this.attribute = attribute;
        this.valueType = valueType.getName();
    }

    /** The entity class name of the indexed attribute, e.g. {@code com.acme.Customer}. */
    public String entity() {
        return entity;
    }

    /** The indexed attribute, e.g. {@code email}. */
    public String attribute() {
        return attribute;
    }

    /** The class name of the attribute's values, e.g. {@code java.lang.String}. */
    public String valueType() {
        return valueType;
    }
}
