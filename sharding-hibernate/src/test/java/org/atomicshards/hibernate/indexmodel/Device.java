package org.atomicshards.hibernate.indexmodel;

import java.util.UUID;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

import org.atomicshards.annotations.ShardIndex;
import org.atomicshards.annotations.ShardKey;

/** A member of an account's unit with a non-unique index (its serial number, which several devices may share). */
@Entity
@Table(name = "ix_device")
public class Device {

    @Id
    private UUID id;

    @ManyToOne
    @JoinColumn(name = "account_id", updatable = false)
    @ShardKey
    private Account account;

    @ShardIndex
    private Long serial;

    protected Device() {
    }

    public Device(UUID id, Account account, Long serial) {
        this.id = id;
        this.account = account;
        this.serial = serial;
    }

    public UUID getId() {
        return id;
    }

    public Account getAccount() {
        return account;
    }

    public Long getSerial() {
        return serial;
    }

    public void setSerial(Long serial) {
        this.serial = serial;
    }
}
