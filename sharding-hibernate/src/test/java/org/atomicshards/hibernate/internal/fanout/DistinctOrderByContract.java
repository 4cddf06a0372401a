package org.atomicshards.hibernate.internal.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import jakarta.persistence.criteria.CriteriaBuilder;
import jakarta.persistence.criteria.CriteriaQuery;
import jakarta.persistence.criteria.Root;
import org.atomicshards.hibernate.UnsupportedFanOutQueryException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SELECT DISTINCT of an entity ordered by a value of the entity's own row: its attributes, its embedded attributes
 * and the foreign key of a to-one (the to-one's identifier) keep the rows distinct as they were, so they merge as one
 * database orders them; a value of another table does not, and is refused.
 */
abstract class DistinctOrderByContract {

    abstract ClientFixture fixture();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "select distinct o from ClientOrder o where o.amount > 10 order by o.client.id, o.id",
            "select distinct o from ClientOrder o order by o.client.id desc, o.id",
            "select distinct o from ClientOrder o order by o.product.id nulls first, o.id",
            "select distinct o from ClientOrder o order by o.delivery.zone, o.delivery.slot desc, o.id",
            "select distinct o from ClientOrder o where o.client.tier > 4 order by o.client.id, o.amount, o.id"})
    void byValuesOfTheSelectedRow(String hql) {
        List<ClientOrder> merged = fixture().sharded.fanOut().createQuery(hql, ClientOrder.class).getResultList();
        List<ClientOrder> oneDatabase = fixture().onReference(s -> s.createQuery(hql, ClientOrder.class)
                .getResultList());

        assertThat(merged).isNotEmpty().map(ClientOrder::getId)
                .containsExactlyElementsOf(oneDatabase.stream().map(ClientOrder::getId).toList());
    }

    @Test
    void byTheForeignKeyThroughCriteriaWithPaging() {
        CriteriaBuilder cb = fixture().sharded.fanOut().criteriaBuilder();
        CriteriaQuery<ClientOrder> query = cb.createQuery(ClientOrder.class);
        Root<ClientOrder> o = query.from(ClientOrder.class);
        query.select(o).distinct(true).orderBy(cb.desc(o.get("client").get("id")), cb.asc(o.get("id")));

        List<ClientOrder> merged = fixture().sharded.fanOut().createQuery(query).setFirstResult(7).setMaxResults(25)
                .getResultList();
        List<ClientOrder> oneDatabase = fixture().onReference(s -> s.createQuery(query).setFirstResult(7)
                .setMaxResults(25).getResultList());

        assertThat(merged).hasSize(25).map(ClientOrder::getId)
                .containsExactlyElementsOf(oneDatabase.stream().map(ClientOrder::getId).toList());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "select distinct o from ClientOrder o order by o.client.tier",
            "select distinct o from ClientOrder o order by o.product.sku",
            "select distinct o from ClientOrder o join o.client c order by c.points"})
    void byAValueOfAnotherTableIsRefused(String hql) {
        assertThatThrownBy(() -> fixture().sharded.fanOut().createQuery(hql, ClientOrder.class).getResultList())
                .isInstanceOf(UnsupportedFanOutQueryException.class)
                .hasMessageContaining("ORDER BY an expression that is not in the SELECT DISTINCT list");
    }
}
