package dev.berth.solve.skyline;

import dev.berth.solve.Budget;

import dev.berth.arith.Checked;

import java.util.Arrays;

/**
 * A dive with exact candidates kept through the {@link ConflictLists}: each placement raises
 * the floors of the unplaced items it shares a step with and lifts their candidates at once;
 * a {@link Selector} finds the next item, by a scan for up to {@code scanLimit} items, else by a
 * heap. Runs on every dive item, or ({@link #keep}, {@link #runKept}) on some of them around
 * the others kept in place.
 */
final class ExactDive implements Dive {
    private final DiveItems items;
    private final ConflictLists conflicts;
    private final ObstacleLists fixed;
    private final Candidates candidates;
    /** Per dive item, the highest top among the placed items it shares a step with. */
    private final long[] floorTop;
    /** {@code unplaced[k] == epoch}: item k is in the current dive and not placed yet. */
    private final int[] unplaced;
    private int epoch;
    private final ScanSelector scan;
    private final HeapSelector heap;
    /** Dives of at most this many items find the next one by a scan. */
    private final int scanLimit;
    private final KeptRun kept;
    /** {@code 0..m-1}: every dive item. */
    private final int[] every;

    ExactDive(DiveItems items, ConflictLists conflicts, ObstacleLists fixed, int scanLimit) {
        int m = items.m;
        this.items = items;
        this.conflicts = conflicts;
        this.fixed = fixed;
        this.candidates = new Candidates(items, fixed);
        this.floorTop = new long[m];
        this.unplaced = new int[m];
        this.scan = new ScanSelector(candidates, m);
        this.heap = new HeapSelector(candidates, m);
        this.scanLimit = scanLimit;
        this.kept = new KeptRun(m);
        this.every = new int[m];
        for (int k = 0; k < m; k++) {
            every[k] = k;
        }
    }

    /** A dive costs at most its conflict entries ({@link SkylineDive#CONFLICT_LIMIT}): it runs to its end. */
    @Override
    public long run(double[] priority, long[] offset, Budget budget) {
        return dive(every, items.m, priority, offset, conflicts, fixed);
    }

    /** A dive places each item once and refreshes nothing lazily. */
    @Override
    public long work() {
        return items.m;
    }

    /** Frees the items {@code active[0..count)} for {@link #runKept}; every other one stays at {@code at[k]}. */
    void keep(int[] active, int count, long[] at) {
        kept.build(items, conflicts, active, count, at);
    }

    /** Places the items freed by the last {@link #keep} around the kept ones; returns the highest end among them. */
    long runKept(int[] active, int count, double[] priority, long[] offset) {
        return dive(active, count, priority, offset, kept.conflicts, kept.obstacles);
    }

    private long dive(int[] active, int count, double[] prio, long[] offset, ConflictLists conf, ObstacleLists obstacles) {
        if (++epoch == Integer.MAX_VALUE) {
            Arrays.fill(unplaced, 0);
            epoch = 1;
        }
        int now = epoch;
        Candidates cand = candidates;
        long[] key = cand.key;
        long[] floor = floorTop;
        int[] open = unplaced;
        cand.use(obstacles);
        for (int q = 0; q < count; q++) {
            int k = active[q];
            open[k] = now;
            floor[k] = 0;
            cand.restart(k);
            key[k] = cand.lift(k, 0);
        }
        Selector next = count <= scanLimit ? scan : heap;
        next.start(active, count, prio);
        long[] size = items.size;
        long[] align = items.align;
        int m = items.m;
        int[] from = conf.from;
        int[] to = conf.to;
        int[] list = conf.list;
        long height = 0;
        for (int left = count; left > 0; left--) {
            int best = next.next();
            open[best] = 0;
            long at = key[best];
            offset[best] = at;
            long top = Checked.saturatingAdd(at, size[best]);
            height = Math.max(height, top);
            for (int c = from[best], end = to[best]; c < end; c++) {
                int j = list[c];
                if (j < m && open[j] == now && top > floor[j]) {
                    floor[j] = top;
                    key[j] = cand.lift(j, Math.max(Checked.saturatingAlignUp(top, align[j]), key[j]));
                }
            }
        }
        return height;
    }
}
