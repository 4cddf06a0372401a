package org.atomicshards.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.PreparedStatement;
import java.sql.ResultSet;

import org.atomicshards.hibernate.embeddedmodel.BillingRef;
import org.atomicshards.hibernate.embeddedmodel.Invoice;
import org.atomicshards.hibernate.embeddedmodel.Membership;
import org.atomicshards.hibernate.embeddedmodel.MembershipId;
import org.atomicshards.hibernate.embeddedmodel.Seat;
import org.atomicshards.hibernate.embeddedmodel.SeatId;
import org.atomicshards.hibernate.embeddedmodel.Tenant;
import org.atomicshards.testing.DatabaseKind;
import org.atomicshards.testing.ShardDatabases;
import org.hibernate.Session;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Keys inside an @EmbeddedId, an @IdClass and an @Embedded value route and are guarded like plain keys. */
class EmbeddedKeysTest {

    /** Where the shards live; the {@code *IT} subclasses run the same tests on PostgreSQL and MariaDB. */
    protected DatabaseKind kind() {
        return DatabaseKind.H2;
    }

    private ShardDatabases dbs;
    private ShardedSessionFactory shards;

    @BeforeEach
    void boot() {
        dbs = ShardDatabases.create(kind(), 3);
        ShardedSessionFactoryBuilder builder = AtomicShards.configure()
                .annotatedClasses(Tenant.class, Membership.class, Invoice.class, Seat.class)
                .virtualShards(30).schemaAction("create");
        dbs.settings().forEach(builder::property);
        shards = builder.build();
    }

    @AfterEach
    void close() {
        shards.close();
        dbs.close();
    }

    @Test
    void aKeyLongerThanAKeyColumnInsideAnEmbeddedIdIsRefusedBeforeAnySql() {
        String tooLong = "t".repeat(65);
        assertThatThrownBy(() -> shards.inUnit(Tenant.class, tooLong, session -> session.persist(new Tenant(tooLong))))
                .isInstanceOf(InvalidShardKeyException.class)
                .hasMessageContaining("65 characters long, but at most 64 fit")
                .hasMessageContaining("Membership.id.tenantId holds 64");
        String fits = "t".repeat(64);
        shards.inUnit(Tenant.class, fits, session -> session.persist(new Tenant(fits)));
        assertThat(shards.find(Tenant.class, fits)).isNotNull();
    }

    private String tenantOn(String shard) {
        for (int i = 0; ; i++) {
            if (shards.shardFor(Tenant.class, "tenant-" + i).orElseThrow().name().equals(shard)) {
                return "tenant-" + i;
            }
        }
    }

    private long rows(String shard, String table, String tenantColumn, String tenant) throws Exception {
        try (var c = dbs.connect(shard);
             PreparedStatement ps = c.prepareStatement("select count(*) from " + table + " where " + tenantColumn + " = ?")) {
            ps.setString(1, tenant);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void membersWithKeysInsideIdsAndEmbeddedValuesLandOnTheirTenantsShard() throws Exception {
        String tenant = tenantOn("s2");
        shards.persist(new Tenant(tenant));
        shards.persist(new Membership(new MembershipId(tenant, "ann"), "admin"));
        shards.persist(new Invoice(new BillingRef(tenant, "2024-001")));
        shards.persist(new Seat(tenant, 7));

        assertThat(rows("s2", "Membership", "tenantId", tenant)).isEqualTo(1);
        assertThat(rows("s2", "Invoice", "tenantId", tenant)).isEqualTo(1);
        assertThat(rows("s2", "Seat", "tenantId", tenant)).isEqualTo(1);
        assertThat(Fixtures.totalRows(dbs, "Membership") + Fixtures.totalRows(dbs, "Invoice")
                + Fixtures.totalRows(dbs, "Seat")).isEqualTo(3);
        assertThat(shards.shardsForId(Membership.class, new MembershipId(tenant, "ann"))).containsExactly(ShardId.of("s2"));
        assertThat(shards.shardsForId(Seat.class, new SeatId(tenant, 7))).containsExactly(ShardId.of("s2"));
        assertThat(shards.find(Membership.class, new MembershipId(tenant, "ann")).getRole()).isEqualTo("admin");
        assertThat(shards.router().routingOf(Invoice.class).orElseThrow().shardKeyPath(Invoice.class)).isEqualTo("ref.tenantId");
    }

    @Test
    void embeddedKeysAreGuarded() {
        String onS0 = tenantOn("s0");
        String onS1 = tenantOn("s1");
        shards.persist(new Tenant(onS0));
        shards.persist(new Tenant(onS1));
        try (Session session = shards.openSession(ShardId.of("s0"))) {
            session.beginTransaction();
            session.persist(new Seat(onS1, 1));
            assertThatThrownBy(session::flush).isInstanceOf(WrongShardException.class)
                    .hasMessageContaining("belongs to shard 's1'");
            session.getTransaction().rollback();
        }
        Invoice invoice = new Invoice(new BillingRef(onS0, "1"));
        shards.persist(invoice);
        assertThatThrownBy(() -> shards.inUnit(Tenant.class, onS0,
                session -> session.find(Invoice.class, invoice.getId()).getRef().setTenantId(onS1)))
                .isInstanceOf(ShardKeyChangedException.class)
                .hasMessageContaining("'ref.tenantId'");
        assertThat(Fixtures.totalRows(dbs, "Seat")).isZero();
    }
}
