package dev.berth.failure;

import java.util.List;
import java.util.Optional;

/**
 * Why a finite space did not fit ({@code capacity-exceeded}, contract §7), as facts: whether any
 * placement can fit and, when one might, what stopped the planner, and so what could help.
 * Callers turn them into advice in their own terms (the command line names its options).
 */
public sealed interface Shortfall {
    /** What could still find a placement. */
    enum Remedy {
        /** A larger time budget: the clock stopped the complete search undecided. */
        MORE_TIME,
        /** A larger work budget: the complete search spent its work budget undecided. */
        MORE_WORK,
        /** The complete (exact) search, which did not run. */
        COMPLETE_SEARCH
    }

    /** Not looked into: the admission check's own failure, as for a tile buffer or a generation-time allocation. */
    Shortfall UNDIAGNOSED = new Undiagnosed();

    /** What could help, if anything. */
    default Optional<Remedy> remedy() {
        return Optional.empty();
    }

    /** The reserved bytes live at {@code step} need {@code live} bytes but {@code available} are usable: no placement fits. */
    record LiveBytesExceed(int step, long live, long available) implements Shortfall {
    }

    /**
     * The fixed region {@code region}, which the input put at {@code offset} ({@code size} bytes,
     * reserved), ends past the {@code available} usable bytes: nothing can move it, so no
     * placement fits.
     */
    record FixedPastCapacity(String region, long offset, long size, long available) implements Shortfall {
    }

    /**
     * The bytes fit at every step, but a complete search proved that no placement does;
     * {@code subset}: a small set of reservations that alone do not fit, or empty when the deletion
     * filter did not finish.
     */
    record ProvedInfeasible(List<String> subset) implements Shortfall {
        public ProvedInfeasible {
            subset = List.copyOf(subset);
        }
    }

    /**
     * The complete search stopped ({@code reason}) without a placement or a proof, by the clock
     * ({@code byClock}) or by its work budget; the best placement found, by {@code solver},
     * reached {@code height}.
     */
    record SearchStopped(String solver, long height, String reason, boolean byClock) implements Shortfall {
        @Override
        public Optional<Remedy> remedy() {
            return Optional.of(byClock ? Remedy.MORE_TIME : Remedy.MORE_WORK);
        }
    }

    /** No complete search ran; the placement of {@code solver} reached {@code height}. */
    record NoCompleteSearch(String solver, long height) implements Shortfall {
        @Override
        public Optional<Remedy> remedy() {
            return Optional.of(Remedy.COMPLETE_SEARCH);
        }
    }

    /** See {@link #UNDIAGNOSED}. */
    record Undiagnosed() implements Shortfall {
    }
}
