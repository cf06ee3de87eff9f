package dev.berth.failure;

import java.util.Optional;

/**
 * Carries a {@link Failure} out of code that cannot return one. It is an expected outcome,
 * not a bug, so it records no stack trace (cheap to throw inside searches).
 */
public final class BerthException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Failure failure;

    public BerthException(Failure failure) {
        super(failure.category().id() + ": " + failure.message(), null, false, false);
        this.failure = failure;
    }

    public Failure failure() {
        return failure;
    }

    public Category category() {
        return failure.category();
    }

    /** An {@code invalid-input} failure naming the field path and the text given. */
    public static BerthException invalid(String path, String text, String message) {
        return new BerthException(new Failure.InvalidInput(message, Optional.of(path), Optional.of(text)));
    }

    /** An {@code invalid-input} failure with a path but no single offending text. */
    public static BerthException invalid(String path, String message) {
        return new BerthException(new Failure.InvalidInput(message, Optional.of(path), Optional.empty()));
    }
}
