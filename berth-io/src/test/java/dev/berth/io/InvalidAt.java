package dev.berth.io;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tests' check of a caller's bad argument: {@code invalid-input} at its path, with these words. */
public final class InvalidAt {
    private InvalidAt() {
    }

    /** {@code call} fails with {@code invalid-input} whose path is {@code path} and whose message holds {@code message}. */
    public static void assertInvalidAt(ThrowingCallable call, String path, String... message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.failure().fields()).containsEntry("path", path);
            assertThat(e.getMessage()).contains(message);
        });
    }
}
