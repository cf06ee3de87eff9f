package dev.berth.failure;

import java.util.Optional;

/**
 * What an {@code invalid-input} failure ({@link Failure.InvalidInput}) says besides its message:
 * where the bad input is, what was given there, and for two failures the facts a caller phrases or
 * places in its own terms. One case for each kind of bad input, so that a reader takes the case
 * apart with a pattern instead of testing optional fields.
 */
public sealed interface InputDetail {
    /** No place to name: a misuse of the command line as a whole (its usage). */
    record None() implements InputDetail {
    }

    /** The field at {@code path} is wrong as a whole, with no single text to quote. */
    record At(String path) implements InputDetail {
        public At {
            Require.nonNull(path, "path");
        }
    }

    /** The field at {@code path} was given {@code text}, which is not valid there. */
    record Given(String path, String text) implements InputDetail {
        public Given {
            Require.nonNull(path, "path");
            Require.nonNull(text, "text");
        }
    }

    /**
     * A deployment input that does not match the plan, {@code input}, named {@code path} (the
     * input's {@linkplain DeployInput.Input#id id}, or a caller's name for it, its option).
     */
    record Deployment(String path, DeployInput input) implements InputDetail {
        public Deployment {
            Require.nonNull(path, "path");
            Require.nonNull(input, "input");
        }

        /** The text the input gave: the space it names, or none when it is missing ({@code NOT_PROVIDED}). */
        public Optional<String> text() {
            return input.mismatch() == DeployInput.Mismatch.NOT_PROVIDED ? Optional.empty() : Optional.of(input.space());
        }
    }

    /** Two fixed regions of a workload that overlap, {@code regions}; {@code path} names the later one. */
    record Overlap(String path, FixedOverlap regions) implements InputDetail {
        public Overlap {
            Require.nonNull(path, "path");
            Require.nonNull(regions, "regions");
        }
    }
}
