package dev.berth.solve.skyline;

import dev.berth.solve.Budget;

/** One way of running a dive over every dive item (see {@link SkylineDive}). */
sealed interface Dive permits ExactDive, LazyDive {
    /**
     * Places every dive item; {@code offset[k]} receives the offset of dive item {@code k}.
     * Returns the highest end among the dive items (0 when there are none), or
     * {@link #STOPPED} when the budget stopped the dive before it placed every item.
     */
    long run(double[] priority, long[] offset, Budget budget);

    /**
     * The work of the last {@link #run}, in item placements: its items, plus, for a dive whose
     * candidates refresh lazily, each refresh (which costs about a placement).
     */
    long work();

    /** What {@link #run} returns for a dive the budget stopped: higher than any height. */
    long STOPPED = Long.MAX_VALUE;
}
