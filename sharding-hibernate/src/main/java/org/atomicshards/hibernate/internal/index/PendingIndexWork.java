package org.atomicshards.hibernate.internal.index;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import org.atomicshards.hibernate.ShardIndexException;
import org.atomicshards.hibernate.ShardingSettings;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.engine.spi.TransactionCompletionCallbacks;

/**
 * The index changes of one transaction of a unit of work: its token, the entries it claimed (committed already) and
 * the entries it marked. Before the transaction commits it checks that its claims are still reserved to it; after
 * the transaction it deletes the entries it let go of (committed) or the entries it claimed for nothing (rolled back).
 * A failure after the transaction leaves a stale entry behind (never a missing one) and is logged, not thrown: the unit
 * of work's outcome stands, and reads check every entry against its unit.
 */
final class PendingIndexWork implements TransactionCompletionCallbacks.BeforeCompletionCallback,
        TransactionCompletionCallbacks.AfterCompletionCallback {

    private static final Logger LOG = System.getLogger("org.atomicshards.hibernate.index");

    /** One entry of the transaction: of a value of the unit {@code key} in {@code index}. */
    record Change(IndexDefinition index, Object value, Object key) {
        boolean sameEntry(Change other) {
            return index.equals(other.index) && key.equals(other.key)
                    && IndexValues.digest(value).equals(IndexValues.digest(other.value));
        }
    }

    private final String token = UUID.randomUUID().toString();
    private final IndexClaims claims;
    private final Runnable done;
    private final List<Change> claimed = new ArrayList<>();
    private final List<Change> marked = new ArrayList<>();
    private long firstClaimNanos;
    private boolean crashed;

    /** @param done called once the transaction completed (the caller forgets this work) */
    PendingIndexWork(IndexClaims claims, Runnable done) {
        this.claims = claims;
        this.done = done;
    }

    String token() {
        return token;
    }

    /** Claims the entry now (committed when this returns). */
    void claim(IndexDefinition index, Object value, Object key) {
        if (claimed.isEmpty()) {
            firstClaimNanos = System.nanoTime(); // before the claim's statement: never later than the shard's claim time
        }
        Change change = new Change(index, value, key);
        claims.claim(index, value, key, token);
        claimed.add(change);
    }

    /** Marks the entry now as let go of by this transaction; deleted after the commit. */
    void mark(IndexDefinition index, Object value, Object key) {
        claims.mark(index, value, key, token);
        marked.add(new Change(index, value, key));
    }

    @Override
    public void doBeforeTransactionCompletion(SharedSessionContractImplementor session) {
        if (claimed.isEmpty() && marked.isEmpty()) {
            return;
        }
        try {
            IndexFaults.at("before-commit");
        } catch (IndexFaults.Crash crash) {
            crashed = true;
            throw crash;
        }
        if (claimed.isEmpty()) {
            return;
        }
        long heldMillis = (System.nanoTime() - firstClaimNanos) / 1_000_000;
        if (heldMillis >= claims.claimTimeoutMillis() / 2) {
            throw new ShardIndexException("The unit of work reached its commit " + heldMillis + " ms after it claimed "
                    + "values of index " + claimed.get(0).index().name() + ", and claims are reserved to it for half of "
                    + ShardingSettings.INDEX_CLAIM_TIMEOUT + " = " + claims.claimTimeoutMillis() + " ms only. Nothing "
                    + "was committed. Fix: flush changes to indexed attributes just before the commit, or raise "
                    + ShardingSettings.INDEX_CLAIM_TIMEOUT);
        }
    }

    @Override
    public void doAfterTransactionCompletion(boolean success, SharedSessionContractImplementor session) {
        try {
            if (crashed) {
                return; // a dead writer does nothing after its transaction
            }
            if (success) {
                try {
                    IndexFaults.at("after-commit");
                } catch (IndexFaults.Crash crash) {
                    return;
                }
                for (Change change : marked) {
                    boolean claimedToo = claimed.stream().anyMatch(change::sameEntry);
                    releaseQuietly(change, !claimedToo);
                }
            } else {
                for (Change change : claimed) {
                    releaseQuietly(change, false);
                }
            }
        } finally {
            done.run();
        }
    }

    private void releaseQuietly(Change change, boolean afterCommit) {
        try {
            claims.release(change.index(), change.value(), change.key(), token, afterCommit);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, () -> "Left a stale entry of index " + change.index().name() + " (reads check it "
                    + "against its unit; ShardIndexes.clean removes it): " + Objects.toString(e.getMessage()), e);
        }
    }
}
