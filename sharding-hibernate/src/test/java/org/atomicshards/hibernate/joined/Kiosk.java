package org.atomicshards.hibernate.joined;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.PrimaryKeyJoinColumn;
import jakarta.persistence.SecondaryTable;
import jakarta.persistence.Table;
import org.atomicshards.annotations.ShardKey;

/** A member whose key column is in its secondary table: a move cannot find its units through its first table. */
@Entity
@Table(name = "kiosk")
@SecondaryTable(name = "kiosk_owner", pkJoinColumns = @PrimaryKeyJoinColumn(name = "kiosk_id"))
public class Kiosk {

    @Id
    private Long id;

    @ShardKey
    @Column(table = "kiosk_owner", name = "shop_id", updatable = false)
    private Long shopId;

    protected Kiosk() {
    }

    public Kiosk(Long id, Long shopId) {
        this.id = id;
        this.shopId = shopId;
    }
}
