package dev.berth.plan;

/**
 * How hard the planner works on each space's height, in work (search nodes, dives), never only
 * in time, so that the same input gives the same plan on a fast or a busy machine. The rule
 * that turns an effort and a space's size into numbers is in {@link SpaceSearch}.
 */
public enum Effort {
    /**
     * A placement within the limits and no more: heuristics, and a search only when they do not
     * fit a finite space (what {@code bench minimalloc} measures without {@code --minimize}).
     */
    FIT,
    /** The default: minimise every space within a work budget that keeps planning fast. */
    DEFAULT,
    /** {@code --minimize}: the same minimisation with a larger work budget. */
    MINIMIZE
}
