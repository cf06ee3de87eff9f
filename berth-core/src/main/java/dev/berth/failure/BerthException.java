package dev.berth.failure;

import java.util.function.Supplier;

/**
 * Carries a {@link Failure} out of code that cannot return one. It is an expected outcome,
 * not a bug, so it records no stack trace (cheap to throw inside searches). A failure can be
 * described lazily: its category is known at once, its message and facts are built the first
 * time someone reads them, so a search that throws and catches pays for no message.
 */
public final class BerthException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Category category;
    private transient Supplier<Failure> describe;
    private transient Failure failure;

    public BerthException(Failure failure) {
        super(null, null, false, false);
        this.category = failure.category();
        this.failure = failure;
    }

    /** A failure of {@code category} whose description {@code describe} builds only when it is read. */
    public BerthException(Category category, Supplier<Failure> describe) {
        super(null, null, false, false);
        this.category = category;
        this.describe = describe;
    }

    public Failure failure() {
        if (failure == null) {
            Failure f = describe.get();
            if (f.category() != category) {
                throw new IllegalStateException("a " + category.id() + " failure described as " + f.category().id());
            }
            failure = f;
            describe = null;
        }
        return failure;
    }

    public Category category() {
        return category;
    }

    /** {@code category: message}. */
    @Override
    public String getMessage() {
        return category.id() + ": " + failure().message();
    }

    /** An {@code invalid-input} failure naming the field path and the text given. */
    public static BerthException invalid(String path, String text, String message) {
        return new BerthException(new Failure.InvalidInput(message, new InputDetail.Given(path, text)));
    }

    /** An {@code invalid-input} failure with a path but no single offending text. */
    public static BerthException invalid(String path, String message) {
        return new BerthException(new Failure.InvalidInput(message, new InputDetail.At(path)));
    }
}
