package dev.berth.verify;

import dev.berth.failure.Require;
import dev.berth.text.Visible;

import java.util.List;

/** The validator's typed verdict on a plan. */
public sealed interface Verdict {

    boolean valid();

    /** Every check passed; {@code checks} counts what was checked (a negative count is {@code invalid-input}). */
    record Valid(long checks) implements Verdict {
        public Valid {
            if (checks < 0) {
                throw Require.invalid("checks", Long.toString(checks), "a count of checks is "
                        + "0..2^63-1, got " + checks);
            }
        }

        public boolean valid() {
            return true;
        }
    }

    /**
     * At least one violation; the list is never empty: an empty one is {@code invalid-input} at
     * {@code violations}, a null list or element a NullPointerException naming it.
     */
    record Invalid(List<Violation> violations) implements Verdict {
        public Invalid {
            violations = Require.elements(violations, "violations");
            if (violations.isEmpty()) {
                throw Require.invalid("violations", "[]", "an invalid verdict needs at least one "
                        + "violation; a plan without any is Valid");
            }
        }

        public boolean valid() {
            return false;
        }

        /** The count and up to 20 violations, one line each (control characters as {@link Visible} codes). */
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("plan failed validation (" + violations.size() + " violation"
                    + (violations.size() == 1 ? "" : "s") + "):");
            violations.stream().limit(20).forEach(v -> sb.append("\n  - ").append(v.kind()).append(": ")
                    .append(Visible.text(v.detail())));
            if (violations.size() > 20) {
                sb.append("\n  ... ").append(violations.size() - 20).append(" more");
            }
            return sb.toString();
        }
    }

    /** One broken rule; a null kind or detail is a NullPointerException naming it. */
    record Violation(Kind kind, String detail) {
        public Violation {
            Require.nonNull(kind, "kind");
            Require.nonNull(detail, "detail");
        }
    }

    /** The rules the validator checks. */
    enum Kind {
        /** A reservation or metrics in a space the target does not have. */
        UNKNOWN_SPACE,
        /** A space's metrics missing, or of another kind or capacity than the target's. */
        SPACE_MISMATCH,
        /** Two reservations, or two descriptors, of one name. */
        DUPLICATE_NAME,
        /** A size, offset or alignment out of range, or a reserve that is not the aligned request. */
        BAD_SIZE,
        /** An offset or reserve off its alignment, or an alignment off the space's. */
        MISALIGNED,
        /** A byte range, a reservation's or a descriptor's, that its format cannot address. */
        NOT_ENCODABLE,
        /** A reservation past its space's usable capacity. */
        OVER_CAPACITY,
        /** Two reservations sharing a byte at a step. */
        OVERLAP,
        /** A metric, or what is proved about it, that the reservations do not give. */
        METRIC_MISMATCH,
        /**
         * The structure of tiles and descriptors: a tile buffer's {@code of}, a tiled tensor's tile
         * buffers and its descriptors (one per tile, each the tile's address and bytes, in the
         * target's format), the descriptor table's space, size and alignment.
         */
        BAD_DESCRIPTOR,
        /**
         * The operator order of a plan with one: an operator named twice, a name that is no tensor of
         * the plan, a tensor written twice or read before it is written, a tensor not live over every
         * step the order needs it at (from its writer, or step 0, to its last reader).
         */
        BAD_ORDER,
        /**
         * A tensor written over an input ({@code sharesWith}) against the rules: the input is no
         * tensor of its space, hosts two outputs, is not read by the operator that writes the output,
         * is read or live after that operator's step, or the two do not begin at one offset with the
         * output fitting in the input.
         */
        BAD_SHARE
    }
}
