package dev.berth.io.fuzz;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The property every fuzz target checks. A reader given any bytes returns a result or throws a
 * {@link BerthException} of category {@code invalid-input} whose message can be built and says
 * something; any other exception or error (a {@code NullPointerException}, an
 * {@code ArithmeticException}, an {@code OutOfMemoryError}, a protobuf or Jackson exception)
 * escapes and is a finding. Work done on what a reader returned (planning, validation) may end
 * in any typed failure, never in an untyped one.
 */
final class Outcomes {
    private Outcomes() {
    }

    /** A reader's result, or empty when it rejected the input as {@code invalid-input}. */
    static <T> Optional<T> read(Supplier<T> reader) {
        try {
            return Optional.of(reader.get());
        } catch (BerthException e) {
            if (e.category() != Category.INVALID_INPUT) {
                throw new AssertionError("a reader rejected its input as " + e.category().id()
                        + ", not invalid-input: " + e.getMessage());
            }
            requireMessage(e);
            return Optional.empty();
        }
    }

    /** The result of work on a read input, or empty when it failed with any typed failure. */
    static <T> Optional<T> typed(Supplier<T> work) {
        try {
            return Optional.of(work.get());
        } catch (BerthException e) {
            requireMessage(e);
            return Optional.empty();
        }
    }

    private static void requireMessage(BerthException e) {
        String m = e.failure().message();
        if (m == null || m.isBlank()) {
            throw new AssertionError("a " + e.category().id() + " failure without a message");
        }
        e.failure().fields(); // the --json error object must be buildable too
    }
}
