package org.atomicshards.processor.internal;

import javax.lang.model.element.Element;

/**
 * An unexpected exception while the processor worked on one element: a bug in the processor, to be reported as one
 * {@code SHARD-900} error on that element rather than crash javac.
 */
public final class ElementFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Element element;

    ElementFailure(Element element, Throwable cause) {
        super(cause);
        this.element = element;
    }

    /** The element being processed when the failure happened. */
    public Element element() {
        return element;
    }
}
