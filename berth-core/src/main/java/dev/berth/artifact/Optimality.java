package dev.berth.artifact;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.solve.SolverKind;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a plan knows about how small a space's high-water mark can be (artifact version 2): the
 * solver whose placement the plan uses, a proved lower bound of the high-water mark, and
 * either a proof that the plan's high-water mark is the smallest ({@link Proof#LOWER_BOUND}: it
 * equals the lower bound of live bytes; {@link Proof#SEARCH}: a complete search proved that
 * nothing lower fits), or an open bracket [{@code lowerBound}, high-water] and why it stayed
 * open. {@code timeLimited} says that the clock ({@code --time-limit}), not the work budget,
 * stopped a search in this space: such a plan may differ on another machine.
 *
 * <p>Heights count everything in the space, generation-time allocations included: the lower
 * bound of the placed reservations is carried through the allocations generation puts above
 * them.
 */
public record Optimality(SolverKind solver, long lowerBound, Proof proof, Optional<Open> open, boolean timeLimited) {

    /** How the high-water mark is known to be the smallest, or that it is not known. */
    public enum Proof {
        /** It equals the lower bound (the peak of live bytes, the largest item, the highest fixed end). */
        LOWER_BOUND("lower-bound"),
        /** A complete search proved that no placement has a lower high-water mark. */
        SEARCH("search"),
        /** Not proved: the smallest high-water mark is in [lowerBound, highWater]. */
        OPEN("open");

        private final String id;

        Proof(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        public static Optional<Proof> byId(String id) {
            return Arrays.stream(values()).filter(p -> p.id.equals(id)).findFirst();
        }
    }

    /** Why the bracket stayed open. */
    public enum Open {
        /** The search's work budget (nodes) ran out. */
        WORK_BUDGET("work-budget"),
        /** The clock ({@code --time-limit}) stopped the search. */
        TIME_LIMIT("time-limit"),
        /**
         * The space is too large to search: more items than {@code auto} searches (docs/design.md),
         * or an exact search whose set-up would pass its entry limit.
         */
        SIZE("size"),
        /** The solver asked for is a heuristic: nothing searched. */
        HEURISTIC("heuristic"),
        /** The placed reservations are proved optimal, but tile buffers placed after them raised the mark. */
        TILES("tiles"),
        /**
         * A chain of shared buffers (contract §5.3) whose members reserve different bytes is placed as
         * one reservation of its largest: what a search proved holds for such plans only, and the
         * lower bound is the one every plan has.
         */
        SHARED("shared"),
        /**
         * The user interrupted the search (Ctrl-C, {@link dev.berth.solve.Progress#interrupted()}): the
         * placement is the best found until then.
         */
        INTERRUPTED("interrupted");

        private final String id;

        Open(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        public static Optional<Open> byId(String id) {
            return Arrays.stream(values()).filter(o -> o.id.equals(id)).findFirst();
        }

        /** Every reason's id, in order, for messages: {@code work-budget, time-limit, ...}. */
        public static String ids() {
            return String.join(", ", Arrays.stream(values()).map(Open::id).toList());
        }
    }

    /**
     * Checks the record: a negative lower bound, an open bracket without a reason (or a proof
     * with one), and a bracket left open by the time limit that is not time-limited are
     * {@code invalid-input} naming the field.
     */
    public Optimality {
        Require.nonNull(solver, "solver");
        Require.nonNull(proof, "proof");
        Require.nonNull(open, "open");
        Require.nonNegative(lowerBound, "lowerBound");
        if ((proof == Proof.OPEN) != open.isPresent()) {
            throw BerthException.invalid("open", open.map(Open::id).orElse(""), proof == Proof.OPEN
                    ? "open: an open bracket says why it is open (" + Open.ids() + ")"
                    : "open: a space with proof '" + proof.id() + "' has no open bracket, so no reason for one");
        }
        if (open.isPresent() && open.get() == Open.TIME_LIMIT && !timeLimited) {
            throw Require.invalid("timeLimited", "false", "false, but the bracket was left open "
                    + "by the time limit");
        }
    }

    /**
     * For people: {@code optimal (lower bound)}, {@code optimal (search)}, or the open bracket
     * up to {@code highWater} and why it is open ({@code [986112, 1031168] work budget spent}).
     */
    public String describe(long highWater) {
        return switch (proof) {
            case LOWER_BOUND -> "optimal (lower bound)";
            case SEARCH -> "optimal (search)";
            case OPEN -> "[" + lowerBound + ", " + highWater + "] " + switch (open.orElseThrow()) {
                case WORK_BUDGET -> "work budget spent";
                case TIME_LIMIT -> "time limit";
                case SIZE -> "not searched (size)";
                case HEURISTIC -> "heuristic only";
                case TILES -> "tiles above";
                case SHARED -> "shared chains placed whole";
                case INTERRUPTED -> "interrupted";
            };
        };
    }

    /** True when the high-water mark is proved the smallest. */
    public boolean optimal() {
        return proof != Proof.OPEN;
    }
}
