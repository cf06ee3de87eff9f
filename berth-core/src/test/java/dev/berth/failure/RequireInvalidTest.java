package dev.berth.failure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code Require.invalid}: the message is the path, ": " and the reason; the detail names the path and the text. */
class RequireInvalidTest {
    @Test
    void theMessageBeginsWithThePathAndTheDetailNamesIt() {
        BerthException e = Require.invalid("spaces.sram.capacity", "a local space needs a capacity");
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        Failure.InvalidInput in = (Failure.InvalidInput) e.failure();
        assertThat(in.message()).isEqualTo("spaces.sram.capacity: a local space needs a capacity");
        assertThat(in.detail()).isEqualTo(new InputDetail.At("spaces.sram.capacity"));
        assertThat(e.getMessage()).isEqualTo("invalid-input: spaces.sram.capacity: a local space needs a capacity");
    }

    @Test
    void theValueGivenIsTheText() {
        Failure.InvalidInput in = (Failure.InvalidInput) Require.invalid("threads", "-1", "must be 0 or more").failure();
        assertThat(in.message()).isEqualTo("threads: must be 0 or more");
        assertThat(in.detail()).isEqualTo(new InputDetail.Given("threads", "-1"));
        assertThat(in.fields()).containsEntry("path", "threads").containsEntry("text", "-1");
    }

    @Test
    void theArgumentChecksWriteTheSameMessagesAsBefore() {
        // Require's own checks use it: the messages a caller has always seen
        assertThat(catchInvalid(() -> Require.name("", "buffer 'b'.name")).message())
                .isEqualTo("buffer 'b'.name: must not be empty");
        assertThat(catchInvalid(() -> Require.nonNegative(-3, "size")).message())
                .isEqualTo("size: must be a whole number of bytes in 0..2^63-1, got -3");
        assertThat(catchInvalid(() -> Require.positive(0, "alignment")).message())
                .isEqualTo("alignment: must be a positive whole number, got 0");
    }

    private static Failure.InvalidInput catchInvalid(Runnable r) {
        try {
            r.run();
        } catch (BerthException e) {
            return (Failure.InvalidInput) e.failure();
        }
        throw new AssertionError("no failure");
    }
}
