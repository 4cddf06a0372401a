package org.atomicshards.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.atomicshards.processor.Sources.compile;
import static org.atomicshards.processor.Sources.source;

import java.util.List;

import com.google.testing.compile.Compilation;
import org.atomicshards.model.Unit;
import org.atomicshards.model.UnitMember;
import org.atomicshards.model.UnitModel;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Models from the source documents and one using every JPA mapping style compile cleanly and yield their units. */
class CleanModelsTest {

    /**
     * Seed 004 (Sharding with SQL Database): one atomic unit of User, Status and Photo keyed by UserID; Status and
     * Photo hold the key in a UserID column that is a foreign key to User; ids are assigned by the application.
     */
    @Nested
    class UserStatusPhoto {

        private final Compilation compilation = compile(
                source("User", """
                        @Entity @AtomicUnit @Table(name = "[User]")
                        public class User {
                            @Id @ShardKey @Column(name = "UserID") Long userId;
                            @Column(name = "EmailAddress", length = 50, nullable = false) String emailAddress;
                            @Column(name = "Password", length = 50, nullable = false) String password;
                            @OneToMany(mappedBy = "user") List<Status> statuses = new ArrayList<>();
                            @OneToMany(mappedBy = "user") List<Photo> photos = new ArrayList<>();
                        }
                        """),
                source("Status", """
                        @Entity
                        public class Status {
                            @Id @Column(name = "StatusID") Long statusId;
                            @Column(name = "Text", length = 142, nullable = false) String text;
                            @ManyToOne(optional = false) @ShardKey
                            @JoinColumn(name = "UserID", nullable = false, updatable = false) User user;
                        }
                        """),
                source("Photo", """
                        @Entity
                        public class Photo {
                            @Id @Column(name = "PhotoID") Long photoId;
                            @Column(name = "BlobURL", nullable = false) String blobUrl;
                            @ManyToOne(optional = false) @ShardKey
                            @JoinColumn(name = "UserID", nullable = false, updatable = false) User user;
                        }
                        """));

        @Test
        void compilesWithoutWarnings() {
            assertThat(compilation).succeededWithoutWarnings();
        }

        @Test
        void writesOneUnitKeyedByTheUserId() {
            assertThat(Metadata.of(compilation)).contains(UnitModel.of(List.of(new Unit("com.acme.User", "java.lang.Long", List.of(
                    new UnitMember("com.acme.User", "userId", "UserID"),
                    new UnitMember("com.acme.Status", "user.userId", "UserID"),
                    new UnitMember("com.acme.Photo", "user.userId", "UserID")))), List.of()));
        }
    }

    /**
     * Seed 001 (Cosmos DB, models and shard keys): an author's data is sharded by authorId; books reference their
     * author by authorId; the few awards an author won are read with the author and live with it.
     */
    @Nested
    class AuthorBookAward {

        private final Compilation compilation = compile(
                source("Author", """
                        @Entity @AtomicUnit
                        public class Author {
                            @Id @ShardKey Long authorId;
                            String name;
                            java.time.LocalDate birthday;
                            @OneToMany(mappedBy = "author") Set<Book> books = new HashSet<>();
                            @OneToMany(mappedBy = "author") Set<Award> awards = new HashSet<>();
                        }
                        """),
                source("Book", """
                        @Entity
                        public class Book {
                            @Id Long bookId;
                            @ManyToOne @ShardKey @JoinColumn(name = "authorId", updatable = false) Author author;
                            String name;
                            String type;
                            @Column(name = "published_year") int publishedYear;
                        }
                        """),
                source("Award", """
                        @Entity
                        public class Award {
                            @Id String awardId;
                            @ManyToOne @ShardKey @JoinColumn(name = "authorId", updatable = false) Author author;
                            String name;
                            String category;
                            int yearWon;
                        }
                        """));

        @Test
        void compilesWithoutWarnings() {
            assertThat(compilation).succeededWithoutWarnings();
        }

        @Test
        void writesOneUnitKeyedByTheAuthorId() {
            UnitModel units = Metadata.of(compilation).orElseThrow();

            assertThat(units.unit("com.acme.Author").orElseThrow().members()).containsExactly(
                    new UnitMember("com.acme.Author", "authorId", "authorId"),
                    new UnitMember("com.acme.Book", "author.authorId", "authorId"),
                    new UnitMember("com.acme.Award", "author.authorId", "authorId"));
        }
    }

    /** Every mapping style Hibernate supports that the rules must see through. */
    @Nested
    class EveryMappingStyle {

        private final Compilation compilation = compile(
                source("Versioned", """
                        @MappedSuperclass
                        public abstract class Versioned {
                            @Version long version;
                        }
                        """),
                source("Tenant", """
                        @Entity @AtomicUnit @Access(AccessType.PROPERTY)
                        public class Tenant extends Versioned {
                            private TenantKey key;
                            private Map<String, Account> accounts;
                            @EmbeddedId @ShardKey public TenantKey getKey() { return key; }
                            public void setKey(TenantKey key) { this.key = key; }
                            @OneToMany(mappedBy = "tenant") public Map<String, Account> getAccounts() { return accounts; }
                            public void setAccounts(Map<String, Account> accounts) { this.accounts = accounts; }
                            @Transient public String getDisplayName() { return key.toString(); }
                        }
                        """),
                source("TenantKey", """
                        @Embeddable
                        public record TenantKey(String region, long number) { }
                        """),
                source("Account", """
                        @Entity @Inheritance(strategy = InheritanceType.SINGLE_TABLE)
                        public abstract class Account extends Versioned {
                            @Id UUID id;
                            @ManyToOne @ShardKey
                            @JoinColumns({@JoinColumn(name = "region", updatable = false), @JoinColumn(name = "number", updatable = false)})
                            Tenant tenant;
                            @ManyToMany Set<Tag> tags;
                            @ElementCollection List<Address> addresses;
                            static int instances;
                            transient String cache;
                        }
                        """),
                source("SavingsAccount", """
                        @Entity
                        public class SavingsAccount extends Account {
                            java.math.BigDecimal rate;
                            @OneToOne(mappedBy = "account") Statement statement;
                        }
                        """),
                source("Statement", """
                        @Entity
                        public class Statement {
                            @EmbeddedId StatementId id;
                            @OneToOne SavingsAccount account;
                        }
                        """),
                source("StatementId", """
                        @Embeddable
                        public class StatementId {
                            @ShardKey TenantKey tenant;
                            int sequence;
                        }
                        """),
                source("Address", """
                        @Embeddable
                        public class Address {
                            String street;
                            @ManyToOne Country country;
                        }
                        """),
                source("Tag", """
                        @Entity
                        public class Tag {
                            @Id UUID id;
                            @Embedded @ShardKey @AttributeOverrides({
                                    @AttributeOverride(name = "region", column = @Column(name = "tenant_region", updatable = false)),
                                    @AttributeOverride(name = "number", column = @Column(name = "tenant_number", updatable = false))})
                            TenantKey tenant;
                        }
                        """),
                source("Country", """
                        @Entity @ReferenceData
                        public class Country { @Id String code; }
                        """));

        @Test
        void compilesWithoutWarnings() {
            assertThat(compilation).succeededWithoutWarnings();
        }

        @Test
        void placesEveryEntityInTheTenantUnit() {
            UnitModel units = Metadata.of(compilation).orElseThrow();
            Unit tenant = units.unit("com.acme.Tenant").orElseThrow();

            assertThat(tenant.keyType()).isEqualTo("com.acme.TenantKey");
            assertThat(tenant.members()).extracting(UnitMember::entity, UnitMember::keyPath).containsExactlyInAnyOrder(
                    org.assertj.core.groups.Tuple.tuple("com.acme.Tenant", "key"),
                    org.assertj.core.groups.Tuple.tuple("com.acme.Account", "tenant.key"),
                    org.assertj.core.groups.Tuple.tuple("com.acme.SavingsAccount", "tenant.key"),
                    org.assertj.core.groups.Tuple.tuple("com.acme.Statement", "id.tenant"),
                    org.assertj.core.groups.Tuple.tuple("com.acme.Tag", "tenant"));
            assertThat(units.referenceData()).containsExactly("com.acme.Country");
        }
    }
}
