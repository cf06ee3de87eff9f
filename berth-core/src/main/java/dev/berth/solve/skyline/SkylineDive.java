package dev.berth.solve.skyline;

import dev.berth.solve.Budget;
import dev.berth.solve.SpaceProblem;

import java.util.Objects;
import java.util.Optional;

/**
 * One greedy "skyline" descent over the free, non-empty items of a {@link SpaceProblem}
 * (MiniMalloc's canonical dive without backtracking). Each item has a floor, the highest top
 * among the already placed items it shares a step with; its candidate offset is its floor,
 * aligned up, then lifted over its obstacles (fixed items, and in a {@link #runKept kept run}
 * the items that stay where they are). Each step places the unplaced item with the lowest
 * candidate, ties going to the higher priority, then the lower index, and raises the floors
 * of the items it shares a step with.
 *
 * <p>The parts: {@link DiveItems} (sizes, steps, alignments), {@link ObstacleLists} (the fixed
 * items each item must avoid), {@link Candidates} (candidates and the lift), and one of two
 * {@link Dive}s, which give the same dives:
 * <ul>
 *   <li>{@link ExactDive}: candidates kept exact through {@link ConflictLists} computed once, the
 *   next item found by a {@link ScanSelector} up to {@link #SCAN_LIMIT} items (cheaper when items
 *   share steps with a large fraction of the others), else by a {@link HeapSelector}; it also
 *   runs on a subset with the other items kept in place ({@link KeptRun});</li>
 *   <li>{@link LazyDive}, when the conflict lists would exceed {@link #CONFLICT_LIMIT} entries: lazy
 *   candidates in a heap and the {@link SectionFloors} of the time sections; no kept runs.</li>
 * </ul>
 * All arrays are allocated once (the lists of kept runs grow when needed); a dive allocates
 * nothing.
 */
final class SkylineDive {
    /** A way of keeping the candidates and finding the next item, forced by tests. */
    enum Mode { SCAN, HEAP, LAZY }

    /** Up to this many items in a dive, the next item is found by a scan, else in a heap. */
    static final int SCAN_LIMIT = 1024;
    /** Above this many conflict-list entries, dives are lazy. */
    static final long CONFLICT_LIMIT = 4_000_000L;

    private final DiveItems items;
    private final Dive dive;

    /** Chooses the way by size: exact up to {@link #CONFLICT_LIMIT} conflict entries, scans up to {@link #SCAN_LIMIT} items. */
    SkylineDive(SpaceProblem p, int[] items) {
        this(new DiveItems(p, items), SCAN_LIMIT, false);
    }

    /** Forces {@code mode} (a lazy dive still, when the conflict lists would be too long). */
    SkylineDive(SpaceProblem p, int[] items, Mode mode) {
        this(new DiveItems(p, items), Objects.requireNonNull(mode) == Mode.SCAN ? Integer.MAX_VALUE : 0,
                mode == Mode.LAZY);
    }

    private SkylineDive(DiveItems items, int scanLimit, boolean lazy) {
        this.items = items;
        ObstacleLists fixed = ObstacleLists.ofFixed(items);
        Optional<ConflictLists> conflicts = lazy ? Optional.empty() : ConflictLists.of(items, CONFLICT_LIMIT);
        this.dive = conflicts.isPresent() ? new ExactDive(items, conflicts.get(), fixed, scanLimit)
                : new LazyDive(items, fixed);
    }

    int count() {
        return items.m;
    }

    /** The highest end of the obstacles, the fixed items with bytes; 0 when there are none. */
    long obstacleTop() {
        return items.fixedTop();
    }

    long size(int k) {
        return items.size[k];
    }

    int stepFirst(int k) {
        return items.first[k];
    }

    int stepLast(int k) {
        return items.last[k];
    }

    /** True when dives can run on a subset of the items with the others kept ({@link #keep}, {@link #runKept}). */
    boolean canKeep() {
        return dive instanceof ExactDive;
    }

    /**
     * Places every dive item; {@code offset[k]} receives the offset of dive item {@code k}.
     * Returns the highest end among the dive items (0 when there are none), or
     * {@link Dive#STOPPED} when the budget stopped the dive.
     */
    long run(double[] prio, long[] offset, Budget budget) {
        return dive.run(prio, offset, budget);
    }

    /** The work of the last {@link #run}, in item placements ({@link Dive#work}). */
    long work() {
        return dive.work();
    }

    /**
     * Prepares {@link #runKept kept runs} of the items {@code active[0..count)}: every other
     * dive item stays at {@code at[k]} and becomes, with the fixed items, an obstacle of the
     * active items it shares a step with.
     */
    void keep(int[] active, int count, long[] at) {
        exact().keep(active, count, at);
    }

    /**
     * Places the active items of the last {@link #keep} around the kept ones; {@code offset[k]}
     * receives the offset of active item {@code k}. Returns the highest end among them.
     */
    long runKept(int[] active, int count, double[] prio, long[] offset) {
        return exact().runKept(active, count, prio, offset);
    }

    private ExactDive exact() {
        if (dive instanceof ExactDive e) {
            return e;
        }
        throw new IllegalStateException("a lazy dive cannot keep items in place (canKeep() is false)");
    }
}
