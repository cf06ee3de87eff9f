package dev.berth.solve.skyline;

/** One way of running a dive over every dive item (see {@link SkylineDive}). */
sealed interface Dive permits ExactDive, LazyDive {
    /**
     * Places every dive item; {@code offset[k]} receives the offset of dive item {@code k}.
     * Returns the highest end among the dive items (0 when there are none).
     */
    long run(double[] priority, long[] offset);
}
