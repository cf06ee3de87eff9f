package dev.berth.verify;

import java.util.List;

/** The validator's typed verdict on a plan. */
public sealed interface Verdict {

    boolean valid();

    /** Every check passed; {@code checks} counts what was checked. */
    record Valid(long checks) implements Verdict {
        public boolean valid() {
            return true;
        }
    }

    /** At least one violation; the list is never empty. */
    record Invalid(List<Violation> violations) implements Verdict {
        public Invalid {
            violations = List.copyOf(violations);
            if (violations.isEmpty()) {
                throw new IllegalArgumentException("an invalid verdict needs a violation");
            }
        }

        public boolean valid() {
            return false;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("plan failed validation (" + violations.size() + " violation"
                    + (violations.size() == 1 ? "" : "s") + "):");
            violations.stream().limit(20).forEach(v -> sb.append("\n  - ").append(v.kind()).append(": ").append(v.detail()));
            if (violations.size() > 20) {
                sb.append("\n  ... ").append(violations.size() - 20).append(" more");
            }
            return sb.toString();
        }
    }

    /** One broken rule. */
    record Violation(Kind kind, String detail) {
    }

    /** The rules the validator checks. */
    enum Kind {
        UNKNOWN_SPACE, SPACE_MISMATCH, DUPLICATE_NAME, BAD_SIZE, MISALIGNED, NOT_ENCODABLE, OVER_CAPACITY, OVERLAP,
        METRIC_MISMATCH, BAD_DESCRIPTOR
    }
}
