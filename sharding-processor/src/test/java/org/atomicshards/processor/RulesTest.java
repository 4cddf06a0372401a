package org.atomicshards.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.atomicshards.processor.Sources.compile;
import static org.atomicshards.processor.Sources.customer;
import static org.atomicshards.processor.Sources.order;
import static org.atomicshards.processor.Sources.source;

import javax.tools.JavaFileObject;

import com.google.testing.compile.Compilation;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One case per rule: the exact number of errors, each on its file and line. */
class RulesTest {

    @Nested
    class RootKeys {

        @Test
        void shard001ARootWithoutShardKey() {
            JavaFileObject customer = source("Customer", """
                    @Entity @AtomicUnit
                    public class Customer { @Id Long id; }
                    """);

            Compilation compilation = compile(customer);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-001] Atomic unit root com.acme.Customer has no @ShardKey")
                    .inFile(customer).onLineContaining("@Entity @AtomicUnit");
        }

        @Test
        void shard002TwoShardKeys() {
            JavaFileObject customer = source("Customer", """
                    @Entity @AtomicUnit
                    public class Customer {
                        @Id @ShardKey Long id;
                        @ShardKey String region;
                    }
                    """);

            Compilation compilation = compile(customer);

            assertThat(compilation).hadErrorCount(2);
            assertThat(compilation).hadErrorContaining("[SHARD-002] com.acme.Customer has 2 @ShardKey attributes (id, region)")
                    .inFile(customer).onLineContaining("@Id @ShardKey Long id;");
            assertThat(compilation).hadErrorContaining("[SHARD-002]").inFile(customer).onLineContaining("@ShardKey String region;");
        }

        @Test
        void shard003AnUnsupportedKeyType() {
            JavaFileObject customer = source("Customer", """
                    @Entity @AtomicUnit
                    public class Customer {
                        @Id @ShardKey Double id;
                    }
                    """);

            Compilation compilation = compile(customer);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-003] Shard key com.acme.Customer.id has type java.lang.Double")
                    .inFile(customer).onLineContaining("@Id @ShardKey Double id;");
        }
    }

    @Nested
    class MemberKeys {

        @Test
        void shard004And005AMemberWithoutKeyOnTheEntityAndOnTheAssociation() {
            JavaFileObject customer = customer();
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id UUID id;
                    }
                    """);

            Compilation compilation = compile(customer, order);

            assertThat(compilation).hadErrorCount(2);
            assertThat(compilation).hadErrorContaining("[SHARD-004] com.acme.Order belongs to atomic unit com.acme.Customer "
                    + "(reached through com.acme.Customer.orders)").inFile(order).onLineContaining("public class Order");
            assertThat(compilation).hadErrorContaining("[SHARD-005] Association com.acme.Customer.orders pulls com.acme.Order")
                    .inFile(customer).onLineContaining("@OneToMany(mappedBy = \"customer\")");
        }

        @Test
        void shard006AKeyOfAnotherType() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id UUID id;
                        @ManyToOne Customer customer;
                        @ShardKey @Column(updatable = false) String customerId;
                    }
                    """);

            Compilation compilation = compile(customer(), order);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-006] Shard key com.acme.Order.customerId has type String, "
                    + "but atomic unit com.acme.Customer is keyed by Long").inFile(order).onLineContaining("String customerId;");
        }

        @Test
        void shard007AKeyAssociationToAnotherMember() {
            JavaFileObject line = source("OrderLine", """
                    @Entity
                    public class OrderLine {
                        @Id UUID id;
                        @ManyToOne @JoinColumn(updatable = false) @ShardKey Order order;
                    }
                    """);

            Compilation compilation = compile(customer(), order(), line);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-007] @ShardKey association com.acme.OrderLine.order refers to "
                    + "com.acme.Order, which is not the root").inFile(line).onLineContaining("@ShardKey Order order;");
        }

        @Test
        void shard008AKeyAssociationToARootNotKeyedByItsId() {
            JavaFileObject customer = source("Customer", """
                    @Entity @AtomicUnit
                    public class Customer {
                        @Id UUID id;
                        @ShardKey @Column(updatable = false) String tenant;
                    }
                    """);
            JavaFileObject order = order();

            Compilation compilation = compile(customer, order);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-008] @ShardKey association com.acme.Order.customer refers to "
                    + "com.acme.Customer, whose shard key com.acme.Customer.tenant is not its id")
                    .inFile(order).onLineContaining("@ShardKey Customer customer;");
        }

        @Test
        void shard009AKeyOnACollection() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id UUID id;
                        @ManyToOne Customer customer;
                        @ShardKey @OneToMany(mappedBy = "order") List<OrderLine> lines;
                    }
                    """);
            JavaFileObject line = source("OrderLine", """
                    @Entity
                    public class OrderLine {
                        @Id UUID id;
                        @ManyToOne Order order;
                        @ShardKey @Column(updatable = false) Long customerId;
                    }
                    """);

            Compilation compilation = compile(customer(), order, line);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-009] @ShardKey on com.acme.Order.lines, a collection (ONE_TO_MANY)")
                    .inFile(order).onLineContaining("List<OrderLine> lines;");
        }
    }

    @Nested
    class Placement {

        private final JavaFileObject carrier = source("Carrier", """
                @Entity @AtomicUnit
                public class Carrier { @Id @ShardKey Long id; }
                """);

        @Test
        void shard010AnEntityReachableFromTwoUnits() {
            JavaFileObject parcel = source("Parcel", """
                    @Entity
                    public class Parcel {
                        @Id UUID id;
                        @ShardKey @Column(updatable = false) Long customerId;
                        @ManyToOne Customer customer;
                        @ManyToOne Carrier carrier;
                    }
                    """);

            Compilation compilation = compile(customer(), order(), carrier, parcel);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-010] com.acme.Parcel is reachable from atomic unit com.acme.Customer "
                    + "(through com.acme.Parcel.customer) and from atomic unit com.acme.Carrier (through com.acme.Parcel.carrier)")
                    .inFile(parcel).onLineContaining("public class Parcel");
        }

        @Test
        void shard011AnAssociationToAnotherUnit() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id UUID id;
                        @ManyToOne @JoinColumn(updatable = false) @ShardKey Customer customer;
                        @ManyToOne Carrier carrier;
                    }
                    """);

            Compilation compilation = compile(customer(), order, carrier);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-011] Association com.acme.Order.carrier links atomic unit "
                    + "com.acme.Customer to com.acme.Carrier of atomic unit com.acme.Carrier")
                    .inFile(order).onLineContaining("@ManyToOne Carrier carrier;");
            assertThat(compilation).hadErrorContaining("for example a Long carrierId");
        }

        @Test
        void shard012ReferenceDataReferringToAShardedEntity() {
            JavaFileObject country = source("Country", """
                    @Entity @ReferenceData
                    public class Country {
                        @Id String code;
                        @ManyToOne Customer bestCustomer;
                    }
                    """);

            Compilation compilation = compile(customer(), order(), country);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-012] Reference data com.acme.Country.bestCustomer refers to "
                    + "com.acme.Customer").inFile(country).onLineContaining("Customer bestCustomer;");
        }

        @Test
        void shard013AnEntityInNoUnit() {
            JavaFileObject setting = source("Setting", """
                    @Entity
                    public class Setting { @Id String name; String value; }
                    """);

            Compilation compilation = compile(customer(), order(), setting);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-013] com.acme.Setting belongs to no atomic unit")
                    .inFile(setting).onLineContaining("public class Setting");
        }

        @Test
        void shard014AKeyValueThatFitsSeveralUnits() {
            JavaFileObject audit = source("AuditEntry", """
                    @Entity
                    public class AuditEntry {
                        @Id UUID id;
                        @ShardKey @Column(updatable = false) long ownerId;
                    }
                    """);

            Compilation compilation = compile(customer(), order(), carrier, audit);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-014] com.acme.AuditEntry carries a @ShardKey of type Long, "
                    + "which keys several atomic units (com.acme.Customer, com.acme.Carrier)")
                    .inFile(audit).onLineContaining("public class AuditEntry");
        }
    }

    @Nested
    class Ids {

        @Test
        void shard015ADatabaseLocalIdGenerator() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id @GeneratedValue(strategy = GenerationType.IDENTITY) Long id;
                        @ManyToOne @JoinColumn(updatable = false) @ShardKey Customer customer;
                    }
                    """);

            Compilation compilation = compile(customer(), order);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-015] com.acme.Order generates its id (attribute id) with IDENTITY")
                    .inFile(order).onLineContaining("GenerationType.IDENTITY");
        }

        @Test
        void shard015AutoOnANumericIdIsADatabaseSequence() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id @GeneratedValue Long id;
                        @ManyToOne @JoinColumn(updatable = false) @ShardKey Customer customer;
                    }
                    """);

            Compilation compilation = compile(customer(), order);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-015] com.acme.Order generates its id (attribute id) with AUTO")
                    .inFile(order).onLineContaining("@GeneratedValue Long id;");
        }

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"@GeneratedValue(strategy = GenerationType.IDENTITY)",
                "@GeneratedValue(strategy = GenerationType.SEQUENCE)", "@GeneratedValue(strategy = GenerationType.TABLE)",
                "@GeneratedValue"})
        void shard023ReferenceDataWithADatabaseGeneratedId(String generatedValue) {
            JavaFileObject petType = source("PetType", """
                    @Entity @ReferenceData
                    public class PetType {
                        @Id %s
                        Long id;
                        String name;
                    }
                    """.formatted(generatedValue));

            Compilation compilation = compile(customer(), order(), petType);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-023] Reference data com.acme.PetType generates its id (attribute id) with ")
                    .inFile(petType).onLineContaining(generatedValue);
            assertThat(compilation).hadErrorContaining("Assign the id in the application before replicating");
        }

        @Test
        void referenceDataWithAnAssignedOrNaturalIdIsFine() {
            JavaFileObject petType = source("PetType", """
                    @Entity @ReferenceData
                    public class PetType { @Id Long id; String name; }
                    """);
            JavaFileObject country = source("Country", """
                    @Entity @ReferenceData
                    public class Country { @Id String code; String name; }
                    """);

            Compilation compilation = compile(customer(), order(), petType, country);

            assertThat(compilation).succeededWithoutWarnings();
        }

        @Test
        void uuidAndCompositeIdsWithTheKeyAreFine() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id @GeneratedValue UUID id;
                        @ManyToOne @JoinColumn(updatable = false) @ShardKey Customer customer;
                    }
                    """);
            JavaFileObject line = source("OrderLine", """
                    @Entity @IdClass(OrderLine.Key.class)
                    public class OrderLine {
                        public record Key(Long customerId, Long number) { }
                        @Id @ShardKey Long customerId;
                        @Id @GeneratedValue(strategy = GenerationType.SEQUENCE) Long number;
                        @ManyToOne Order order;
                    }
                    """);

            Compilation compilation = compile(customer(), order, line);

            assertThat(compilation).succeededWithoutWarnings();
        }
    }

    @Nested
    class MutableKeys {

        @Test
        void shard016AnUpdatableKeyIsAWarning() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id UUID id;
                        @ShardKey @Column(name = "customer_id") Long customerId;
                    }
                    """);

            Compilation compilation = compile(customer(), order);

            assertThat(compilation).succeeded();
            assertThat(compilation).hadWarningCount(1);
            assertThat(compilation).hadWarningContaining("[SHARD-016] Shard key com.acme.Order.customerId is mapped as updatable")
                    .inFile(order).onLineContaining("Long customerId;");
        }

        @Test
        void shard016PointsAtAnExplicitUpdatableTrue() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id UUID id;
                        @ManyToOne @ShardKey
                        @JoinColumn(name = "customer_id",
                                    updatable = true)
                        Customer customer;
                    }
                    """);

            Compilation compilation = compile(customer(), order);

            assertThat(compilation).hadWarningCount(1);
            assertThat(compilation).hadWarningContaining("[SHARD-016]").inFile(order).onLineContaining("updatable = true");
        }
    }

    @Nested
    class Declarations {

        @Test
        void shard017RootAndReferenceData() {
            JavaFileObject customer = source("Customer", """
                    @Entity
                    @ReferenceData
                    @AtomicUnit
                    public class Customer { @Id @ShardKey Long id; }
                    """);

            Compilation compilation = compile(customer);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-017] com.acme.Customer is annotated both @AtomicUnit and @ReferenceData")
                    .inFile(customer).onLineContaining("@AtomicUnit");
        }

        @Test
        void shard018AShardKeyOnReferenceData() {
            JavaFileObject country = source("Country", """
                    @Entity @ReferenceData
                    public class Country { @Id @ShardKey String code; }
                    """);

            Compilation compilation = compile(customer(), order(), country);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-018] @ShardKey on com.acme.Country.code, but com.acme.Country is reference data")
                    .inFile(country).onLineContaining("@Id @ShardKey String code;");
        }

        @Test
        void shard019AUnitAnnotationOnASubclass() {
            JavaFileObject party = source("Party", """
                    @Entity @Inheritance
                    public class Party { @Id @ShardKey Long id; }
                    """);
            JavaFileObject person = source("Person", """
                    @Entity
                    @AtomicUnit
                    public class Person extends Party { String name; }
                    """);

            Compilation compilation = compile(party, person);

            assertThat(compilation).hadErrorCount(2);
            assertThat(compilation).hadErrorContaining("[SHARD-019] @AtomicUnit on com.acme.Person, a subclass of entity com.acme.Party")
                    .inFile(person).onLineContaining("@AtomicUnit");
            assertThat(compilation).hadErrorContaining("[SHARD-013] com.acme.Party belongs to no atomic unit")
                    .inFile(party).onLineContaining("public class Party");
        }

        @Test
        void shard020AUnitAnnotationOnANonEntity() {
            JavaFileObject dto = source("CustomerDto", """
                    @AtomicUnit
                    public class CustomerDto { Long id; }
                    """);

            Compilation compilation = compile(customer(), order(), dto);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-020] @AtomicUnit on com.acme.CustomerDto, which is not an @Entity")
                    .inFile(dto).onLineContaining("@AtomicUnit");
        }

        @Test
        void shard021AShardKeyOutsideAPersistentClass() {
            JavaFileObject dto = source("OrderDto", """
                    public class OrderDto {
                        @ShardKey Long customerId;
                    }
                    """);

            Compilation compilation = compile(customer(), order(), dto);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-021] @ShardKey on com.acme.OrderDto.customerId, whose class "
                    + "com.acme.OrderDto is not an @Entity").inFile(dto).onLineContaining("@ShardKey Long customerId;");
        }

        @Test
        void shard022AShardKeyOnAGetterUnderFieldAccess() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id UUID id;
                        @Column(updatable = false) Long customerId;
                        @ManyToOne Customer customer;

                        @ShardKey
                        public Long getCustomerId() { return customerId; }
                    }
                    """);

            JavaFileObject customer = customer();
            Compilation compilation = compile(customer, order);

            assertThat(compilation).hadErrorCount(3);
            assertThat(compilation).hadErrorContaining("[SHARD-022] @ShardKey on com.acme.Order.getCustomerId(), which Hibernate "
                    + "does not map as a persistent attribute (the class uses field access because its @Id is on a field, "
                    + "so Hibernate ignores annotations on getters). Move @ShardKey to the field.")
                    .inFile(order).onLineContaining("@ShardKey");
            assertThat(compilation).hadErrorContaining("[SHARD-004]").inFile(order).onLineContaining("public class Order");
            assertThat(compilation).hadErrorContaining("[SHARD-005]").inFile(customer).onLineContaining("List<Order> orders;");
        }

        @Test
        void shard022AShardKeyOnATransientField() {
            JavaFileObject order = source("Order", """
                    @Entity
                    public class Order {
                        @Id UUID id;
                        @ManyToOne @JoinColumn(updatable = false) @ShardKey Customer customer;
                        @Transient @ShardKey Long cachedCustomerId;
                    }
                    """);

            Compilation compilation = compile(customer(), order);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("(it is marked @Transient)").inFile(order).onLineContaining("cachedCustomerId");
        }
    }

    @Nested
    class ShardIndexes {

        @Test
        void indexesOnBasicAttributesOfRootsAndMembersAreClean() {
            JavaFileObject customer = source("Customer", """
                    @Entity @AtomicUnit
                    public class Customer {
                        @Id @ShardKey Long id;
                        @ShardIndex(unique = true) String email;
                        @ShardIndex UUID externalId;
                        @OneToMany(mappedBy = "customer") List<Order> orders;
                    }
                    """);
            JavaFileObject order = source("Order", """
                    @Entity @Table(name = "orders")
                    public class Order {
                        @Id UUID id;
                        @ManyToOne @JoinColumn(name = "customer_id", updatable = false) @ShardKey Customer customer;
                        @ShardIndex long trackingNumber;
                    }
                    """);

            Compilation compilation = compile(customer, order);

            assertThat(compilation).succeededWithoutWarnings();
        }

        @Test
        void shard024AnUnsupportedTypeOnTheAnnotation() {
            JavaFileObject customer = source("Customer", """
                    @Entity @AtomicUnit
                    public class Customer {
                        @Id @ShardKey Long id;
                        @ShardIndex
                        Double score;
                    }
                    """);

            Compilation compilation = compile(customer);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-024] @ShardIndex on com.acme.Customer.score, of type "
                    + "java.lang.Double.").inFile(customer).onLineContaining("@ShardIndex");
        }

        @Test
        void shard025AnIndexOnAnAssociation() {
            JavaFileObject customer = customer();
            JavaFileObject order = source("Order", """
                    @Entity @Table(name = "orders")
                    public class Order {
                        @Id UUID id;
                        @ManyToOne @JoinColumn(name = "customer_id", updatable = false) @ShardKey Customer customer;
                        @ManyToOne @ShardIndex Country country;
                    }
                    """);
            JavaFileObject country = source("Country", """
                    @Entity @ReferenceData
                    public class Country { @Id String code; }
                    """);

            Compilation compilation = compile(customer, order, country);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-025] @ShardIndex on com.acme.Order.country, a to-one "
                    + "association (MANY_TO_ONE).").inFile(order).onLineContaining("@ShardIndex Country country;");
        }

        @Test
        void shard026AnIndexOnReferenceData() {
            JavaFileObject country = source("Country", """
                    @Entity @ReferenceData
                    public class Country {
                        @Id String code;
                        @ShardIndex String name;
                    }
                    """);

            Compilation compilation = compile(customer(), order(), country);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-026] @ShardIndex on com.acme.Country.name, but "
                    + "com.acme.Country is reference data").inFile(country).onLineContaining("@ShardIndex String name;");
        }

        @Test
        void shard027AnIndexOnTheShardKey() {
            JavaFileObject customer = source("Customer", """
                    @Entity @AtomicUnit
                    public class Customer {
                        @Id @ShardKey @ShardIndex Long id;
                    }
                    """);

            Compilation compilation = compile(customer);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-027] @ShardIndex on com.acme.Customer.id, the shard "
                    + "key of com.acme.Customer").inFile(customer).onLineContaining("@ShardIndex Long id;");
        }

        @Test
        void shard028AnIndexInAUnitKeyedByAnEmbeddable() {
            JavaFileObject tenantId = source("TenantId", """
                    @Embeddable
                    public record TenantId(String region, Long number) { }
                    """);
            JavaFileObject tenant = source("Tenant", """
                    @Entity @AtomicUnit
                    public class Tenant {
                        @EmbeddedId @ShardKey TenantId id;
                        @ShardIndex(unique = true) String domain;
                    }
                    """);

            Compilation compilation = compile(tenantId, tenant);

            assertThat(compilation).hadErrorCount(1);
            assertThat(compilation).hadErrorContaining("[SHARD-028] @ShardIndex on com.acme.Tenant.domain, but atomic "
                    + "unit com.acme.Tenant is keyed by the embedded value com.acme.TenantId")
                    .inFile(tenant).onLineContaining("@ShardIndex(unique = true) String domain;");
        }
    }
}
