package org.atomicshards.hibernate;

/** The root of the exceptions a fan-out query throws. */
public class FanOutQueryException extends AtomicShardsException {

    private static final long serialVersionUID = 1L;

    public FanOutQueryException(String message) {
        super(message);
    }

    public FanOutQueryException(String message, Throwable cause) {
        super(message, cause);
    }
}
