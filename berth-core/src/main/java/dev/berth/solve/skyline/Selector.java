package dev.berth.solve.skyline;

/**
 * Finds, at each step of a dive through the conflict lists, the unplaced item with the lowest
 * candidate; ties go to the higher priority, then to the lower index. This is a total order,
 * so every selector gives the same dive.
 */
sealed interface Selector permits ScanSelector, HeapSelector {
    /** Starts a dive over {@code active[0..count)}, whose candidates are already set. */
    void start(int[] active, int count, double[] priority);

    /** Takes the next item to place out of the unplaced ones and returns it. */
    int next();
}
