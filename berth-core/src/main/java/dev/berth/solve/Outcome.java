package dev.berth.solve;

/** What a solver returns for one space. */
public sealed interface Outcome {

    /** Offsets for every item (fixed items at their fixed offsets) and the resulting height. */
    record Solved(long[] offsets, long height) implements Outcome {
    }

    /** A complete search proved that no placement fits within the limit. */
    record Infeasible(String reason) implements Outcome {
    }

    /** The search stopped (time limit or cancellation) before it found a placement or a proof. */
    record Unknown(String reason) implements Outcome {
    }
}
