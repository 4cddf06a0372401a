package org.atomicshards.hibernate.joined;

import jakarta.persistence.Entity;
import jakarta.persistence.PrimaryKeyJoinColumn;
import jakarta.persistence.Table;

/** A subclass whose table joins the base table through a column of another name. */
@Entity
@Table(name = "book")
@PrimaryKeyJoinColumn(name = "item_id")
public class Book extends Item {

    private int pages;

    protected Book() {
    }

    public Book(Long id, Long shopId, String title, int pages) {
        super(id, shopId, title);
        this.pages = pages;
    }

    public int getPages() {
        return pages;
    }

    public void setPages(int pages) {
        this.pages = pages;
    }
}
