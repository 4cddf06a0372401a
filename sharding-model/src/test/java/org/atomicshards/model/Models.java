package org.atomicshards.model;

/**
 * Hand-built model descriptions for the rule tests. Each element's {@code source} is a readable string
 * ({@code "Order"}, {@code "Order.customer"}) so tests can assert where a violation points.
 */
final class Models {

    static final String PKG = "com.acme.";

    private Models() {
    }

    static String name(String simpleName) {
        return PKG + simpleName;
    }

    static EntityDescription.Builder entity(String simpleName) {
        return EntityDescription.builder(name(simpleName)).source(simpleName);
    }

    static EntityDescription.Builder root(String simpleName) {
        return entity(simpleName).atomicUnit(true);
    }

    static EntityDescription.Builder reference(String simpleName) {
        return entity(simpleName).referenceData(true);
    }

    static AttributeDescription.Builder basic(String owner, String name, String type) {
        return AttributeDescription.builder(name, AttributeKind.BASIC).javaType(type).column(name)
                .source(owner + "." + name);
    }

    static AttributeDescription id(String owner, String type) {
        return basic(owner, "id", type).id(true).build();
    }

    static AttributeDescription keyId(String owner, String type) {
        return basic(owner, "id", type).id(true).shardKey(true).build();
    }

    static AttributeDescription key(String owner, String name, String type) {
        return basic(owner, name, type).shardKey(true).updatable(false).build();
    }

    static AttributeDescription.Builder association(String owner, String name, AttributeKind kind, String target) {
        return AttributeDescription.builder(name, kind).targetEntity(name(target)).source(owner + "." + name);
    }

    static AttributeDescription manyToOne(String owner, String name, String target) {
        return association(owner, name, AttributeKind.MANY_TO_ONE, target).column(name + "_id").build();
    }

    static AttributeDescription keyManyToOne(String owner, String name, String target) {
        return association(owner, name, AttributeKind.MANY_TO_ONE, target).column(name + "_id")
                .shardKey(true).updatable(false).build();
    }

    static AttributeDescription oneToMany(String owner, String name, String target, String mappedBy) {
        return association(owner, name, AttributeKind.ONE_TO_MANY, target).mappedBy(mappedBy).build();
    }

    static ModelDescription model(EntityDescription.Builder... entities) {
        return ModelDescription.of(java.util.Arrays.stream(entities).map(EntityDescription.Builder::build).toList());
    }

    static AtomicUnitCheck check(EntityDescription.Builder... entities) {
        return AtomicUnitRules.check(model(entities));
    }

    /** The classic unit: Customer (key = id) with Orders holding a @ManyToOne @ShardKey to it. */
    static EntityDescription.Builder customer() {
        return root("Customer").attribute(keyId("Customer", "java.lang.Long"))
                .attribute(oneToMany("Customer", "orders", "Order", "customer"));
    }

    static EntityDescription.Builder order() {
        return entity("Order").attribute(id("Order", "java.util.UUID"))
                .attribute(keyManyToOne("Order", "customer", "Customer"));
    }
}
