package org.atomicshards.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.atomicshards.model.Models.association;
import static org.atomicshards.model.Models.basic;
import static org.atomicshards.model.Models.check;
import static org.atomicshards.model.Models.customer;
import static org.atomicshards.model.Models.entity;
import static org.atomicshards.model.Models.id;
import static org.atomicshards.model.Models.key;
import static org.atomicshards.model.Models.keyId;
import static org.atomicshards.model.Models.keyManyToOne;
import static org.atomicshards.model.Models.manyToOne;
import static org.atomicshards.model.Models.name;
import static org.atomicshards.model.Models.oneToMany;
import static org.atomicshards.model.Models.order;
import static org.atomicshards.model.Models.reference;
import static org.atomicshards.model.Models.root;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class AtomicUnitRulesTest {

    @Nested
    class ACleanModel {

        private final AtomicUnitCheck check = check(
                customer(),
                order().attribute(manyToOne("Order", "country", "Country")),
                entity("AuditEntry").attribute(id("AuditEntry", "java.util.UUID"))
                        .attribute(key("AuditEntry", "customerId", "long")),
                reference("Country").attribute(id("Country", "java.lang.String")));

        @Test
        void hasNoViolations() {
            assertThat(check.report().violations()).isEmpty();
        }

        @Test
        void resolvesEachMembersKeyPathAndColumn() {
            Unit unit = check.units().unit(name("Customer")).orElseThrow();
            assertThat(unit.keyType()).isEqualTo("java.lang.Long");
            assertThat(unit.members()).containsExactly(
                    new UnitMember(name("Customer"), "id", "id"),
                    new UnitMember(name("Order"), "customer.id", "customer_id"),
                    new UnitMember(name("AuditEntry"), "customerId", "customerId"));
        }

        @Test
        void listsReferenceDataOutsideTheUnits() {
            assertThat(check.units().referenceData()).containsExactly(name("Country"));
            assertThat(check.units().unitOf(name("Country"))).isEmpty();
            assertThat(check.units().unitOf(name("Order")).map(Unit::root)).contains(name("Customer"));
        }
    }

    @Nested
    class RootKeys {

        @Test
        void aRootWithoutKeyIsReportedOnItsAtomicUnitAnnotation() {
            AtomicUnitCheck check = check(root("Customer").attribute(id("Customer", "java.lang.Long")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.ROOT_WITHOUT_SHARD_KEY, "Customer", Site.ATOMIC_UNIT));
            assertThat(check.report().violations().get(0).text())
                    .startsWith("[SHARD-001] Atomic unit root com.acme.Customer has no @ShardKey");
        }

        @Test
        void twoKeysAreReportedOnEachKey() {
            AtomicUnitCheck check = check(root("Customer").attribute(keyId("Customer", "java.lang.Long"))
                    .attribute(key("Customer", "region", "java.lang.String")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source)
                    .containsExactly(tuple(Message.MULTIPLE_SHARD_KEYS, "Customer.id"),
                            tuple(Message.MULTIPLE_SHARD_KEYS, "Customer.region"));
        }

        @ParameterizedTest
        @ValueSource(strings = {"byte", "short", "int", "long", "java.lang.Long", "java.lang.Integer",
                "java.math.BigInteger", "java.lang.String", "java.util.UUID"})
        void acceptsIntegralStringAndUuidKeys(String type) {
            assertThat(check(root("Customer").attribute(keyId("Customer", type))).report().violations()).isEmpty();
        }

        @ParameterizedTest
        @ValueSource(strings = {"double", "java.math.BigDecimal", "java.time.Instant", "boolean", "byte[]"})
        void rejectsOtherKeyTypes(String type) {
            AtomicUnitCheck check = check(root("Customer").attribute(keyId("Customer", type)));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::site)
                    .containsExactly(tuple(Message.UNSUPPORTED_KEY_TYPE, Site.SHARD_KEY));
            assertThat(check.report().violations().get(0).text()).contains("has type " + type);
        }

        @Test
        void acceptsAnEmbeddableOfSupportedTypes() {
            AttributeDescription tenantKey = AttributeDescription.builder("id", AttributeKind.EMBEDDED)
                    .javaType(name("TenantKey")).id(true).shardKey(true)
                    .component(basic("TenantKey", "region", "java.lang.String").build())
                    .component(basic("TenantKey", "number", "long").build()).build();

            AtomicUnitCheck check = check(root("Tenant").attribute(tenantKey));

            assertThat(check.report().violations()).isEmpty();
            assertThat(check.units().unit(name("Tenant")).orElseThrow().keyType()).isEqualTo(name("TenantKey"));
        }

        @Test
        void rejectsAnEmbeddableWithAnUnsupportedComponent() {
            AttributeDescription tenantKey = AttributeDescription.builder("id", AttributeKind.EMBEDDED)
                    .javaType(name("TenantKey")).id(true).shardKey(true).source("Tenant.id")
                    .component(basic("TenantKey", "weight", "double").build()).build();

            AtomicUnitCheck check = check(root("Tenant").attribute(tenantKey));

            assertThat(check.report().violations()).singleElement().satisfies(violation -> {
                assertThat(violation.message()).isEqualTo(Message.UNSUPPORTED_KEY_TYPE);
                assertThat(violation.text()).contains("weight: double");
            });
        }
    }

    @Nested
    class MemberKeys {

        @Test
        void aMemberWithoutKeyIsReportedOnTheEntityAndOnTheAssociationThatPulledItIn() {
            AtomicUnitCheck check = check(customer(), entity("Order").attribute(id("Order", "java.util.UUID")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::entity, Violation::source, Violation::site)
                    .containsExactly(
                            tuple(Message.MEMBER_WITHOUT_SHARD_KEY, name("Order"), "Order", Site.ELEMENT),
                            tuple(Message.ASSOCIATION_TO_MEMBER_WITHOUT_KEY, name("Customer"), "Customer.orders", Site.ASSOCIATION));
            assertThat(check.report().violations().get(0).text()).contains(
                    "com.acme.Order belongs to atomic unit com.acme.Customer (reached through com.acme.Customer.orders)",
                    "of type Long");
        }

        @Test
        void aMemberReachedOnlyThroughItsOwnAssociationIsStillInTheUnit() {
            AtomicUnitCheck check = check(root("Customer").attribute(keyId("Customer", "java.lang.Long")),
                    entity("Order").attribute(id("Order", "java.util.UUID")).attribute(manyToOne("Order", "customer", "Customer")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source).containsExactly(
                    tuple(Message.MEMBER_WITHOUT_SHARD_KEY, "Order"),
                    tuple(Message.ASSOCIATION_TO_MEMBER_WITHOUT_KEY, "Order.customer"));
        }

        @Test
        void aKeyOfAnotherTypeIsReportedOnTheKey() {
            AtomicUnitCheck check = check(customer(),
                    entity("Order").attribute(id("Order", "java.util.UUID")).attribute(key("Order", "customerId", "java.lang.String"))
                            .attribute(manyToOne("Order", "customer", "Customer")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.KEY_TYPE_MISMATCH, "Order.customerId", Site.SHARD_KEY));
            assertThat(check.report().violations().get(0).text())
                    .contains("has type String, but atomic unit com.acme.Customer is keyed by Long");
        }

        @Test
        void aPrimitiveKeyMatchesItsWrapper() {
            AtomicUnitCheck check = check(root("Customer").attribute(keyId("Customer", "long")),
                    entity("Order").attribute(id("Order", "java.util.UUID")).attribute(key("Order", "customerId", "java.lang.Long")));

            assertThat(check.report().violations()).isEmpty();
        }

        @Test
        void aKeyAssociationToAnotherMemberIsRejected() {
            AtomicUnitCheck check = check(customer(), order().attribute(oneToMany("Order", "lines", "OrderLine", "order")),
                    entity("OrderLine").attribute(id("OrderLine", "java.util.UUID")).attribute(keyManyToOne("OrderLine", "order", "Order")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source)
                    .containsExactly(tuple(Message.KEY_ASSOCIATION_NOT_TO_ROOT, "OrderLine.order"));
        }

        @Test
        void aKeyAssociationNeedsTheRootsIdToBeTheKey() {
            AtomicUnitCheck check = check(
                    root("Customer").attribute(id("Customer", "java.util.UUID")).attribute(key("Customer", "tenant", "java.lang.String")),
                    order());

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source)
                    .containsExactly(tuple(Message.KEY_ASSOCIATION_ROOT_KEY_NOT_ID, "Order.customer"));
        }

        @Test
        void aKeyOnACollectionOrAnInverseSideIsRejected() {
            AtomicUnitCheck check = check(
                    root("Customer").attribute(keyId("Customer", "java.lang.Long"))
                            .attribute(association("Customer", "orders", AttributeKind.ONE_TO_MANY, "Order")
                                    .mappedBy("customer").shardKey(true).build()),
                    order());

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source).contains(
                    tuple(Message.KEY_WITHOUT_OWN_COLUMN, "Customer.orders"));
        }

        @Test
        void aKeyInsideAnElementCollectionIsRejectedOnTheCollection() {
            AttributeDescription addresses = AttributeDescription.builder("addresses", AttributeKind.ELEMENT_COLLECTION)
                    .javaType(name("Address")).source("Order.addresses")
                    .component(key("Address", "customerId", "long")).build();

            AtomicUnitCheck check = check(customer(), order().attribute(addresses));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.KEY_WITHOUT_OWN_COLUMN, "Order.addresses", Site.ELEMENT));
            assertThat(check.report().violations().get(0).text()).contains("com.acme.Order.addresses.customerId");
        }

        @Test
        void aKeyInsideAnEmbeddedIdIsFound() {
            AttributeDescription orderId = AttributeDescription.builder("id", AttributeKind.EMBEDDED)
                    .javaType(name("OrderId")).id(true).source("Order.id")
                    .component(key("OrderId", "customerId", "long"))
                    .component(basic("OrderId", "number", "long").build()).build();

            AtomicUnitCheck check = check(customer(), entity("Order").attribute(orderId)
                    .attribute(manyToOne("Order", "customer", "Customer")).idGeneration(IdGeneration.SEQUENCE));

            assertThat(check.report().violations()).isEmpty();
            assertThat(check.units().unitOf(name("Order")).orElseThrow().member(name("Order")).orElseThrow().keyPath())
                    .isEqualTo("id.customerId");
        }
    }

    @Nested
    class Placement {

        @Test
        void anEntityReachableFromTwoUnitsAtTheSameDistanceIsReportedOnce() {
            AtomicUnitCheck check = check(customer(), order().attribute(manyToOne("Order", "shipment", "Shipment")),
                    root("Carrier").attribute(keyId("Carrier", "java.lang.Long"))
                            .attribute(oneToMany("Carrier", "shipments", "Shipment", "carrier")),
                    entity("Shipment").attribute(id("Shipment", "java.util.UUID")).attribute(key("Shipment", "customerId", "long"))
                            .attribute(manyToOne("Shipment", "carrier", "Carrier")),
                    entity("Parcel").attribute(id("Parcel", "java.util.UUID")).attribute(key("Parcel", "customerId", "long"))
                            .attribute(manyToOne("Parcel", "customer", "Customer"))
                            .attribute(manyToOne("Parcel", "carrier", "Carrier")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source)
                    .containsExactly(tuple(Message.REACHABLE_FROM_TWO_UNITS, "Parcel"),
                            tuple(Message.CROSS_UNIT_ASSOCIATION, "Order.shipment"));
        }

        @Test
        void anAssociationIntoAnotherUnitIsReportedOnTheAssociation() {
            AtomicUnitCheck check = check(customer(), order().attribute(manyToOne("Order", "vendor", "Vendor")),
                    root("Vendor").attribute(keyId("Vendor", "java.util.UUID")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::entity, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.CROSS_UNIT_ASSOCIATION, name("Order"), "Order.vendor", Site.ASSOCIATION));
            assertThat(check.report().violations().get(0).text()).contains("for example a UUID vendorId");
        }

        @Test
        void aMemberAnchoredByItsKeyAssociationBelongsToThatUnit() {
            AtomicUnitCheck check = check(customer(), order().attribute(manyToOne("Order", "invoice", "Invoice")),
                    root("Vendor").attribute(keyId("Vendor", "java.lang.Long")),
                    entity("Invoice").attribute(id("Invoice", "java.util.UUID")).attribute(keyManyToOne("Invoice", "vendor", "Vendor")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source)
                    .containsExactly(tuple(Message.CROSS_UNIT_ASSOCIATION, "Order.invoice"));
            assertThat(check.units().unitOf(name("Invoice")).map(Unit::root)).contains(name("Vendor"));
        }

        @Test
        void referenceDataMustNotReferToShardedEntities() {
            AtomicUnitCheck check = check(customer(), order(),
                    reference("Country").attribute(id("Country", "java.lang.String")).attribute(manyToOne("Country", "bestCustomer", "Customer")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.REFERENCE_DATA_REFERS_TO_SHARDED, "Country.bestCustomer", Site.ASSOCIATION));
        }

        @Test
        void anEntityInNoUnitIsReported() {
            AtomicUnitCheck check = check(customer(), order(), entity("Setting").attribute(id("Setting", "java.lang.String")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source)
                    .containsExactly(tuple(Message.ENTITY_IN_NO_UNIT, "Setting"));
        }

        @Test
        void anEntityOnlyReachableThroughReferenceDataIsInNoUnit() {
            AtomicUnitCheck check = check(customer(), order(),
                    reference("Country").attribute(id("Country", "java.lang.String")).attribute(manyToOne("Country", "region", "Region")),
                    entity("Region").attribute(id("Region", "java.lang.String")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source)
                    .containsExactly(tuple(Message.ENTITY_IN_NO_UNIT, "Region"));
        }

        @Test
        void aValueKeyThatFitsSeveralUnitsAndNoAssociationIsAmbiguous() {
            AtomicUnitCheck check = check(customer(), order(), root("Vendor").attribute(keyId("Vendor", "java.lang.Long")),
                    entity("AuditEntry").attribute(id("AuditEntry", "java.util.UUID")).attribute(key("AuditEntry", "ownerId", "long")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source)
                    .containsExactly(tuple(Message.AMBIGUOUS_UNIT, "AuditEntry"));
        }

        @Test
        void aValueKeyOfAnotherTypeInNoUnitIsInNoUnit() {
            AtomicUnitCheck check = check(customer(), order(),
                    entity("AuditEntry").attribute(id("AuditEntry", "java.util.UUID")).attribute(key("AuditEntry", "ownerId", "java.lang.String")));

            assertThat(check.report().violations()).extracting(Violation::message).containsExactly(Message.ENTITY_IN_NO_UNIT);
        }
    }

    @Nested
    class Inheritance {

        @Test
        void subclassesShareTheirHierarchysUnitAndKey() {
            AtomicUnitCheck check = check(customer(), order(),
                    entity("OnlineOrder").superEntity(name("Order")).attribute(id("Order", "java.util.UUID"))
                            .attribute(keyManyToOne("Order", "customer", "Customer"))
                            .attribute(basic("OnlineOrder", "url", "java.lang.String").build()));

            assertThat(check.report().violations()).isEmpty();
            assertThat(check.units().unitOf(name("OnlineOrder")).orElseThrow().member(name("OnlineOrder")))
                    .contains(new UnitMember(name("OnlineOrder"), "customer.id", "customer_id"));
        }

        @Test
        void unitAnnotationsBelongOnTheTopEntity() {
            AtomicUnitCheck check = check(entity("Party").attribute(keyId("Party", "long")),
                    root("Person").superEntity(name("Party")).attribute(keyId("Party", "long")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .contains(tuple(Message.UNIT_ANNOTATION_ON_SUBCLASS, "Person", Site.ATOMIC_UNIT));
        }
    }

    @Nested
    class Declarations {

        @Test
        void aRootCannotBeReferenceData() {
            AtomicUnitCheck check = check(root("Customer").referenceData(true).attribute(keyId("Customer", "long")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::site)
                    .containsExactly(tuple(Message.ROOT_AND_REFERENCE_DATA, Site.ATOMIC_UNIT));
        }

        @Test
        void referenceDataHasNoShardKey() {
            AtomicUnitCheck check = check(reference("Country").attribute(keyId("Country", "java.lang.String")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.SHARD_KEY_ON_REFERENCE_DATA, "Country.id", Site.SHARD_KEY));
        }
    }

    @Nested
    class IdGenerators {

        static Stream<Arguments> generators() {
            return Stream.of(
                    Arguments.of(IdGeneration.IDENTITY, "java.lang.Long", true),
                    Arguments.of(IdGeneration.SEQUENCE, "long", true),
                    Arguments.of(IdGeneration.TABLE, "java.lang.Long", true),
                    Arguments.of(IdGeneration.AUTO, "java.lang.Long", true),
                    Arguments.of(IdGeneration.AUTO, "java.util.UUID", false),
                    Arguments.of(IdGeneration.UUID, "java.util.UUID", false),
                    Arguments.of(IdGeneration.CUSTOM, "long", false),
                    Arguments.of(IdGeneration.ASSIGNED, "long", false));
        }

        @ParameterizedTest(name = "{0} on a {1} id: rejected = {2}")
        @MethodSource("generators")
        void databaseLocalGeneratorsAreRejectedOnMembers(IdGeneration generation, String idType, boolean rejected) {
            AtomicUnitCheck check = check(customer(), entity("Order").attribute(id("Order", idType))
                    .attribute(keyManyToOne("Order", "customer", "Customer")).idGeneration(generation));

            List<Message> expected = rejected ? List.of(Message.DATABASE_LOCAL_ID_GENERATOR) : List.of();
            assertThat(check.report().violations()).extracting(Violation::message).isEqualTo(expected);
            if (rejected) {
                assertThat(check.report().violations().get(0)).extracting(Violation::source, Violation::site)
                        .containsExactly("Order.id", Site.ID_GENERATION);
            }
        }

        @Test
        void aGeneratedRootKeyIsRejected() {
            AtomicUnitCheck check = check(root("Customer").attribute(keyId("Customer", "long")).idGeneration(IdGeneration.IDENTITY));

            assertThat(check.report().violations()).extracting(Violation::message).containsExactly(Message.DATABASE_LOCAL_ID_GENERATOR);
        }

        @ParameterizedTest(name = "{0} on a {1} reference-data id: rejected = {2}")
        @MethodSource("generators")
        void referenceDataMayNotCountOnEachShard(IdGeneration generation, String idType, boolean rejected) {
            AtomicUnitCheck check = check(customer(), order(),
                    reference("Country").attribute(id("Country", idType)).idGeneration(generation));

            List<Message> expected = rejected ? List.of(Message.REFERENCE_DATA_DATABASE_ID) : List.of();
            assertThat(check.report().violations()).extracting(Violation::message).isEqualTo(expected);
            if (rejected) {
                assertThat(check.report().violations().get(0)).extracting(Violation::source, Violation::site)
                        .containsExactly("Country.id", Site.ID_GENERATION);
                assertThat(check.report().violations().get(0).text())
                        .startsWith("[SHARD-023] Reference data com.acme.Country generates its id (attribute id) with " + generation)
                        .contains("Assign the id in the application");
            }
        }
    }

    @Nested
    class MutableKeys {

        @Test
        void anUpdatableKeyIsAWarningNotAnError() {
            AtomicUnitCheck check = check(customer(), entity("Order").attribute(id("Order", "java.util.UUID"))
                    .attribute(basic("Order", "customerId", "long").shardKey(true).build()));

            assertThat(check.report().hasErrors()).isFalse();
            assertThat(check.report().warnings()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.MUTABLE_SHARD_KEY, "Order.customerId", Site.UPDATABLE));
        }

        @Test
        void anIdKeyIsNeverReported() {
            AtomicUnitCheck check = check(customer(), order());

            assertThat(check.report().isClean()).isTrue();
        }
    }

    @Nested
    class ShardIndexes {

        @ParameterizedTest
        @ValueSource(strings = {"java.lang.String", "long", "java.lang.Integer", "java.util.UUID", "java.math.BigInteger"})
        void aBasicAttributeOfAnIndexableTypeOnARootOrMemberIsClean(String type) {
            AtomicUnitCheck check = check(
                    customer().attribute(basic("Customer", "email", type).shardIndex(true, true).build()),
                    order().attribute(basic("Order", "reference", type).shardIndex(true, false).build()));

            assertThat(check.report().violations()).isEmpty();
        }

        @ParameterizedTest
        @ValueSource(strings = {"double", "java.time.LocalDate", "java.math.BigDecimal", "byte[]", "boolean"})
        void anUnsupportedTypeIsReportedOnTheIndexAnnotation(String type) {
            AtomicUnitCheck check = check(customer()
                    .attribute(basic("Customer", "score", type).shardIndex(true, false).build()), order());

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.UNSUPPORTED_INDEX_TYPE, "Customer.score", Site.SHARD_INDEX));
            assertThat(check.report().violations().get(0).text())
                    .startsWith("[SHARD-024] @ShardIndex on com.acme.Customer.score, of type " + type + ".");
        }

        @Test
        void anIndexOnAnAssociationOrEmbeddedValueIsReported() {
            AtomicUnitCheck check = check(customer(), order().attribute(
                    association("Order", "country", AttributeKind.MANY_TO_ONE, "Country").column("country_id")
                            .shardIndex(true, false).build()),
                    reference("Country").attribute(id("Country", "java.lang.String")));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.INDEX_NOT_ON_BASIC_ATTRIBUTE, "Order.country", Site.SHARD_INDEX));
            assertThat(check.report().violations().get(0).text()).startsWith(
                    "[SHARD-025] @ShardIndex on com.acme.Order.country, a to-one association (MANY_TO_ONE).");
        }

        @Test
        void anIndexInsideAnEmbeddedValueIsReportedOnTheComponent() {
            AtomicUnitCheck check = check(customer().attribute(
                    AttributeDescription.builder("address", AttributeKind.EMBEDDED).javaType("com.acme.Address")
                            .source("Customer.address")
                            .component(basic("Address", "zip", "java.lang.String").shardIndex(true, false).build())
                            .build()), order());

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.INDEX_NOT_ON_BASIC_ATTRIBUTE, "Address.zip", Site.SHARD_INDEX));
            assertThat(check.report().violations().get(0).text())
                    .contains("com.acme.Customer.address.zip, a value inside an embedded value");
        }

        @Test
        void anIndexOnReferenceDataIsReported() {
            AtomicUnitCheck check = check(customer(), order(), reference("Country")
                    .attribute(id("Country", "java.lang.String"))
                    .attribute(basic("Country", "name", "java.lang.String").shardIndex(true, true).build()));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.INDEX_ON_REFERENCE_DATA, "Country.name", Site.SHARD_INDEX));
            assertThat(check.report().violations().get(0).text())
                    .startsWith("[SHARD-026] @ShardIndex on com.acme.Country.name, but com.acme.Country is reference data");
        }

        @Test
        void anIndexOnTheShardKeyIsReported() {
            AtomicUnitCheck check = check(customer(), order(), entity("AuditEntry")
                    .attribute(id("AuditEntry", "java.util.UUID"))
                    .attribute(basic("AuditEntry", "customerId", "long").shardKey(true).updatable(false)
                            .shardIndex(true, false).build()));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.INDEX_ON_SHARD_KEY, "AuditEntry.customerId", Site.SHARD_INDEX));
            assertThat(check.report().violations().get(0).text())
                    .startsWith("[SHARD-027] @ShardIndex on com.acme.AuditEntry.customerId, the shard key of com.acme.AuditEntry");
        }

        @Test
        void anIndexInAUnitKeyedByAnEmbeddedValueIsReported() {
            AtomicUnitCheck check = check(root("Tenant")
                    .attribute(AttributeDescription.builder("id", AttributeKind.EMBEDDED).javaType("com.acme.TenantId")
                            .id(true).shardKey(true).source("Tenant.id")
                            .component(basic("TenantId", "region", "java.lang.String").build())
                            .component(basic("TenantId", "number", "long").build()).build())
                    .attribute(basic("Tenant", "domain", "java.lang.String").shardIndex(true, true).build()));

            assertThat(check.report().violations()).extracting(Violation::message, Violation::source, Violation::site)
                    .containsExactly(tuple(Message.INDEX_ON_COMPOSITE_KEY_UNIT, "Tenant.domain", Site.SHARD_INDEX));
            assertThat(check.report().violations().get(0).text()).startsWith("[SHARD-028] @ShardIndex on "
                    + "com.acme.Tenant.domain, but atomic unit com.acme.Tenant is keyed by the embedded value com.acme.TenantId");
        }

        @Test
        void uniqueIsOnlyTrueOnAnIndexedAttribute() {
            AttributeDescription notIndexed = basic("Customer", "email", "java.lang.String").shardIndex(false, true).build();

            assertThat(notIndexed.isIndexed()).isFalse();
            assertThat(notIndexed.isUniqueIndex()).isFalse();
        }
    }
}
