package org.atomicshards.hibernate;

/**
 * An index kept with {@link org.atomicshards.annotations.ShardIndex} could not be used or kept as asked: an unknown
 * index, a key too long to be stored in an index entry, or index entries contended beyond the retries. Messages
 * name the index ({@code com.acme.Customer.email}) and never an indexed value, which may be personal data.
 */
public class ShardIndexException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public ShardIndexException(String message) {
        super(message);
    }

    public ShardIndexException(String message, Throwable cause) {
        super(message, cause);
    }
}
