package dev.berth.solve.skyline;

import dev.berth.solve.Budget;

import dev.berth.arith.Checked;

/**
 * A dive without conflict lists: a heap of lazy candidates (floors only rise, so a stored
 * candidate is a lower bound that is refreshed when it reaches the top) and the
 * {@link SectionFloors} of the time sections. It cannot run on a subset.
 */
final class LazyDive implements Dive {
    private final DiveItems items;
    private final ObstacleLists fixed;
    private final Candidates candidates;
    private final SectionFloors floors;
    private final int[] heap;
    private int heapSize;
    private double[] priority = new double[0];
    /** Placements and refreshes of the last run. */
    private long work;

    LazyDive(DiveItems items, ObstacleLists fixed) {
        this.items = items;
        this.fixed = fixed;
        this.candidates = new Candidates(items, fixed);
        this.floors = new SectionFloors(items);
        this.heap = new int[items.m];
    }

    /** Looks at the budget once per this many placed items, and once per this many refreshes (a power of two). */
    static final int POLL = 1 << 10;

    /**
     * Candidates refresh lazily, so one dive can cost far more than its items: it looks at the
     * budget every {@link #POLL} placements and every {@link #POLL} refreshes.
     */
    @Override
    public long run(double[] prio, long[] offset, Budget budget) {
        priority = prio;
        Candidates cand = candidates;
        long[] key = cand.key;
        long[] size = items.size;
        long[] align = items.align;
        cand.use(fixed);
        floors.clear();
        heapSize = 0;
        for (int k = 0; k < items.m; k++) {
            cand.restart(k);
            key[k] = 0;
            heap[heapSize++] = k;
        }
        for (int h = heapSize / 2 - 1; h >= 0; h--) {
            down(h);
        }
        long height = 0;
        int placed = 0;
        long refreshed = 0;
        work = items.m;
        while (heapSize > 0) {
            int k = heap[0];
            long at = cand.lift(k, Math.max(Checked.saturatingAlignUp(floors.floor(k), align[k]), key[k]));
            if (at > key[k]) {
                key[k] = at;
                down(0);
                if ((++refreshed & (POLL - 1)) == 0 && budget.exhausted()) {
                    work = Checked.saturatingAdd(items.m, refreshed);
                    return STOPPED;
                }
                continue;
            }
            heap[0] = heap[--heapSize];
            if (heapSize > 0) {
                down(0);
            }
            offset[k] = at;
            long top = Checked.saturatingAdd(at, size[k]);
            floors.raise(k, top);
            height = Math.max(height, top);
            if ((++placed & (POLL - 1)) == 0 && budget.exhausted()) {
                work = Checked.saturatingAdd(items.m, refreshed);
                return STOPPED;
            }
        }
        work = Checked.saturatingAdd(items.m, refreshed);
        return height;
    }

    @Override
    public long work() {
        return work;
    }

    private boolean before(int a, int b) {
        long[] key = candidates.key;
        if (key[a] != key[b]) {
            return key[a] < key[b];
        }
        double pa = priority[a];
        double pb = priority[b];
        if (pa != pb) {
            return pa > pb;
        }
        return a < b;
    }

    private void down(int h) {
        int x = heap[h];
        while (true) {
            int c = 2 * h + 1;
            if (c >= heapSize) {
                break;
            }
            if (c + 1 < heapSize && before(heap[c + 1], heap[c])) {
                c++;
            }
            if (!before(heap[c], x)) {
                break;
            }
            heap[h] = heap[c];
            h = c;
        }
        heap[h] = x;
    }
}
