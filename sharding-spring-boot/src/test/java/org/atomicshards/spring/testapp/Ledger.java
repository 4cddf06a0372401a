package org.atomicshards.spring.testapp;

import org.atomicshards.spring.ShardKeyParam;
import org.atomicshards.spring.testapp.AccountRepository;
import org.atomicshards.spring.testapp.EntryRepository;
import org.springframework.transaction.annotation.Transactional;

/** A service with units of work named by their key. */
public class Ledger {

    private final AccountRepository accounts;
    private final EntryRepository entries;

    public Ledger(AccountRepository accounts, EntryRepository entries) {
        this.accounts = accounts;
        this.entries = entries;
    }

    @Transactional
    public Entry book(@ShardKeyParam long accountId, long amount) {
        return entries.save(new Entry(accounts.getReferenceById(accountId), amount));
    }

    @Transactional
    public Entry bookFor(@ShardKeyParam Long accountId, long amount) {
        return entries.save(new Entry(accounts.getReferenceById(accountId), amount));
    }

    /** The key parameter may be an entity of the unit: its key is read from it. */
    @Transactional
    public Account rename(@ShardKeyParam Account account, String owner) {
        Account managed = accounts.findById(account.getId()).orElseThrow();
        managed.setOwner(owner);
        return managed;
    }

    /**
     * The shard the transaction's entity manager is bound to when the method body starts, before any repository
     * call: set only if the key advice ran before the transaction began.
     */
    @Transactional
    public org.atomicshards.hibernate.ShardId shardAtStart(@ShardKeyParam long accountId,
                                                         jakarta.persistence.EntityManagerFactory factory) {
        var holder = (org.springframework.orm.jpa.EntityManagerHolder)
                org.springframework.transaction.support.TransactionSynchronizationManager.getResource(factory);
        return ((org.atomicshards.spring.internal.ShardRoutedEntityManager) holder.getEntityManager()).boundShard();
    }

    @Transactional
    public int clear(@ShardKeyParam long accountId) {
        return entries.deleteAllOf(accountId);
    }

    @Transactional
    public long ownersNamed(@ShardKeyParam long accountId, String owner) {
        return accounts.findByOwner(owner).size();
    }

    /** Renames the account with a {@code @Modifying} query in the unit of work of its key; the rows changed. */
    @Transactional
    public int renameInBulk(@ShardKeyParam long accountId, String owner) {
        return accounts.renameInBulk(accountId, owner);
    }

    /** Reads the account by id in the unit of work of its key; null if it is not found. */
    @Transactional(readOnly = true)
    public Account read(@ShardKeyParam long accountId) {
        return accounts.findById(accountId).orElse(null);
    }
}
