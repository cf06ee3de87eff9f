package dev.berth.failure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A typed failure: one of the contract's error categories with a message a person can check
 * by hand and the numbers behind it. {@link #fields()} gives the JSON error object of the
 * contract (§7) in a stable order, without depending on any JSON library.
 */
public sealed interface Failure {

    Category category();

    String message();

    /** The reservation facts, or {@link Facts#NONE}. */
    Facts facts();

    /** Category-specific fields, appended after the common ones. */
    default Map<String, Object> extraFields() {
        return Map.of();
    }

    /** The JSON error object's fields, in contract order, absent ones left out. */
    default Map<String, Object> fields() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("category", category().id());
        m.put("message", message());
        Facts f = facts();
        f.buffer().ifPresent(v -> m.put("buffer", v));
        f.space().ifPresent(v -> m.put("space", v));
        f.start().ifPresent(v -> m.put("start", v));
        f.requested().ifPresent(v -> m.put("requested", v));
        f.reserved().ifPresent(v -> m.put("reserved", v));
        f.alignment().ifPresent(v -> m.put("alignment", v));
        f.limit().ifPresent(v -> m.put("limit", v));
        f.limitSource().ifPresent(v -> m.put("limitSource", v));
        m.putAll(extraFields());
        return m;
    }

    /**
     * Bad input: a file, a field, an option. {@code detail} says where and what was given, and the
     * facts of a deployment input that does not match the plan or of two fixed regions that overlap.
     */
    record InvalidInput(String message, InputDetail detail) implements Failure {
        public InvalidInput {
            Require.nonNull(detail, "detail");
        }

        /** The field path the detail names (the error object's {@code path}), if any. */
        public Optional<String> path() {
            if (detail instanceof InputDetail.At a) {
                return Optional.of(a.path());
            }
            if (detail instanceof InputDetail.Given g) {
                return Optional.of(g.path());
            }
            if (detail instanceof InputDetail.Deployment d) {
                return Optional.of(d.path());
            }
            if (detail instanceof InputDetail.Overlap o) {
                return Optional.of(o.path());
            }
            return Optional.empty();
        }

        /** The text given at the path (the error object's {@code text}), if the detail quotes one. */
        public Optional<String> text() {
            if (detail instanceof InputDetail.Given g) {
                return Optional.of(g.text());
            }
            if (detail instanceof InputDetail.Deployment d) {
                return d.text();
            }
            return Optional.empty();
        }

        public Category category() {
            return Category.INVALID_INPUT;
        }

        public Facts facts() {
            return Facts.NONE;
        }

        @Override
        public Map<String, Object> extraFields() {
            Map<String, Object> m = new LinkedHashMap<>();
            path().ifPresent(v -> m.put("path", v));
            text().ifPresent(v -> m.put("text", v));
            return m;
        }
    }

    /** A quantity the plan must hold does not fit in 0..2^63-1. */
    record ArithmeticOverflow(String message, String operation, Facts facts) implements Failure {
        public Category category() {
            return Category.ARITHMETIC_OVERFLOW;
        }

        @Override
        public Map<String, Object> extraFields() {
            return Map.of("operation", operation);
        }
    }

    /** A start or end address past what a format can encode. */
    record AddressNotEncodable(String message, Facts facts) implements Failure {
        public Category category() {
            return Category.ADDRESS_NOT_ENCODABLE;
        }
    }

    /**
     * A finite space cannot hold the plan; {@code shortfall} says why, as facts. It is provably
     * infeasible when the reserved bytes live at one step exceed the capacity, or a fixed region
     * ends past it, so that no planner could succeed.
     */
    record CapacityExceeded(String message, Facts facts, Shortfall shortfall) implements Failure {
        public Category category() {
            return Category.CAPACITY_EXCEEDED;
        }

        /** True when the reserved bytes live at {@link #step} exceed the capacity, or a fixed region ends past it. */
        public boolean provablyInfeasible() {
            return shortfall instanceof Shortfall.LiveBytesExceed || shortfall instanceof Shortfall.FixedPastCapacity;
        }

        /** The first step whose live bytes exceed the capacity, when there is one. */
        public OptionalInt step() {
            return shortfall instanceof Shortfall.LiveBytesExceed l ? OptionalInt.of(l.step()) : OptionalInt.empty();
        }

        /** A small set of reservations proved not to fit alone, or empty. */
        public List<String> infeasibleSubset() {
            return shortfall instanceof Shortfall.ProvedInfeasible p ? p.subset() : List.of();
        }

        @Override
        public Map<String, Object> extraFields() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("provablyInfeasible", provablyInfeasible());
            step().ifPresent(v -> m.put("step", v));
            if (!infeasibleSubset().isEmpty()) {
                m.put("infeasibleSubset", infeasibleSubset());
            }
            return m;
        }
    }

    /** What the runtime provides at deployment is less than the plan needs. */
    record InsufficientDeploymentCapacity(String message, String space, long needed, long provided,
                                          long shortBy) implements Failure {
        public Category category() {
            return Category.INSUFFICIENT_DEPLOYMENT_CAPACITY;
        }

        public Facts facts() {
            return Facts.NONE.withSpace(space);
        }

        @Override
        public Map<String, Object> extraFields() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("needed", needed);
            m.put("provided", provided);
            m.put("short", shortBy);
            return m;
        }
    }
}
