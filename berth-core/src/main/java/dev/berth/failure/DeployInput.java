package dev.berth.failure;

import java.util.List;
import java.util.Optional;

/**
 * A {@code check-deploy} input that does not match the plan, as facts: which input, which
 * space, what is wrong. Callers phrase it with their own names for the inputs (the command
 * line's options).
 *
 * @param kind       the space's kind, for {@link Mismatch#NOT_LOGICAL}
 * @param planSpaces the plan's spaces, for {@link Mismatch#NO_SUCH_SPACE}
 */
public record DeployInput(Input input, String space, Mismatch mismatch, Optional<String> kind,
                          List<String> planSpaces) {
    /** The inputs of a deployment check. */
    public enum Input {
        /** The bytes the runtime provides for a logical space. */
        PROVIDED_CAPACITY("provide"),
        /** The loader's base address of a logical space. */
        LOADER_BASE("base");

        private final String id;

        Input(String id) {
            this.id = id;
        }

        /** The name of the input in {@code DeployCheck.check}. */
        public String id() {
            return id;
        }
    }

    /** What is wrong. */
    public enum Mismatch {
        /** The input names a space the plan does not have. */
        NO_SUCH_SPACE,
        /** The input names a space that is not logical: only logical spaces are given capacity and base at deployment. */
        NOT_LOGICAL,
        /** A logical space of the plan is given no capacity. */
        NOT_PROVIDED
    }

    public DeployInput {
        planSpaces = List.copyOf(planSpaces);
    }
}
