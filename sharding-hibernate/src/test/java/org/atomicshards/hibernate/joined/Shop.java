package org.atomicshards.hibernate.joined;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.PrimaryKeyJoinColumn;
import jakarta.persistence.SecondaryTable;
import jakarta.persistence.Table;
import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardKey;

/** A unit root keyed by its id, with a secondary table: its rows share the root row's id. */
@Entity
@Table(name = "shop")
@SecondaryTable(name = "shop_profile", pkJoinColumns = @PrimaryKeyJoinColumn(name = "shop_id"))
@AtomicUnit
public class Shop {

    @Id
    @ShardKey
    private Long id;

    private String name;

    @Column(table = "shop_profile")
    private String motto;

    protected Shop() {
    }

    public Shop(Long id, String name, String motto) {
        this.id = id;
        this.name = name;
        this.motto = motto;
    }

    public String getMotto() {
        return motto;
    }

    public void setMotto(String motto) {
        this.motto = motto;
    }
}
