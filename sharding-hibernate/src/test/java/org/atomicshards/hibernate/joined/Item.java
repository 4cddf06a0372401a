package org.atomicshards.hibernate.joined;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Inheritance;
import jakarta.persistence.InheritanceType;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;

/** A member of a joined hierarchy: the key is in the base table, each subclass has a table of its own. */
@Entity
@Table(name = "item")
@Inheritance(strategy = InheritanceType.JOINED)
public abstract class Item {

    @Id
    private Long id;

    @ShardKey
    @Column(name = "shop_id", updatable = false)
    private Long shopId;

    private String title;

    protected Item() {
    }

    protected Item(Long id, Long shopId, String title) {
        this.id = id;
        this.shopId = shopId;
        this.title = title;
    }

    public String getTitle() {
        return title;
    }
}
