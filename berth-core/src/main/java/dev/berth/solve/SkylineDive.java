package dev.berth.solve;

import dev.berth.arith.Checked;

/**
 * One greedy "skyline" descent over the free, non-empty items of a {@link SpaceProblem}
 * (MiniMalloc's canonical dive without backtracking). Time is cut into sections at every
 * start and end of a free item; each section has a floor, the top of what is placed in it.
 * An unplaced item's candidate offset is the highest floor over its sections (aligned up,
 * then lifted above any fixed item it would touch). Each step places the unplaced item with
 * the lowest candidate offset, ties going to the higher priority, then the lower index, and
 * raises the floors of its sections to its top.
 *
 * <p>The candidates are kept lazily in a heap (floors only rise, so a stored candidate is a
 * lower bound that is refreshed when it reaches the top) and the floors in a segment tree
 * with range-raise and range-maximum, so a dive costs O(n log n) plus refreshes. All arrays
 * are allocated once; a dive allocates nothing.
 */
final class SkylineDive {
    private final SpaceProblem p;
    /** The free items with at least one byte, by problem index. */
    private final int[] items;
    private final int[] sectionFirst;
    private final int[] sectionLast;
    private final long[] size;
    private final long[] align;
    /** Fixed items with bytes: first and last step, offset and end. */
    private final int[] fixedFirst;
    private final int[] fixedLast;
    private final long[] fixedStart;
    private final long[] fixedEnd;
    /** Per dive item, the fixed items sharing a step with it, by increasing offset (compressed rows). */
    private final int[] fixedListStart;
    private final long[] obstacleStart;
    private final long[] obstacleEnd;
    /** Per dive item, the first obstacle not yet below its candidate in the current dive. */
    private final int[] obstacleNext;
    private final int[] stepFirst;
    private final int[] stepLast;
    private final int leaves;
    private final long[] treeMax;
    private final long[] treeRaise;
    private final int[] heap;
    private final long[] key;
    /** Position of each item in the heap. */
    private final int[] where;
    private int heapSize;
    private double[] priority;
    /** Below this many items a dive scans all candidates, kept up to date through conflict lists. */
    static final int SCAN_LIMIT = 3000;
    /** Conflict lists (items sharing a step), compressed rows; null above {@link #SCAN_LIMIT}. */
    private final int[] conflictStart;
    private final int[] conflicts;
    private final long[] floorTop;
    private final boolean[] placed;

    SkylineDive(SpaceProblem p, int[] items) {
        this(p, items, items.length <= SCAN_LIMIT);
    }

    /** {@code exact}: keep candidates exact through conflict lists, else lazily (the two give the same dives). */
    SkylineDive(SpaceProblem p, int[] items, boolean exact) {
        this.p = p;
        this.items = items;
        int m = items.length;
        long[] bounds = new long[2 * m];
        for (int k = 0; k < m; k++) {
            int i = items[k];
            bounds[2 * k] = p.first(i);
            bounds[2 * k + 1] = (long) p.last(i) + 1;
        }
        java.util.Arrays.sort(bounds);
        int distinct = 0;
        for (int k = 0; k < bounds.length; k++) {
            if (k == 0 || bounds[k] != bounds[k - 1]) {
                bounds[distinct++] = bounds[k];
            }
        }
        sectionFirst = new int[m];
        sectionLast = new int[m];
        size = new long[m];
        align = new long[m];
        stepFirst = new int[m];
        stepLast = new int[m];
        for (int k = 0; k < m; k++) {
            int i = items[k];
            sectionFirst[k] = java.util.Arrays.binarySearch(bounds, 0, distinct, p.first(i));
            sectionLast[k] = java.util.Arrays.binarySearch(bounds, 0, distinct, (long) p.last(i) + 1) - 1;
            size[k] = p.reserved(i);
            align[k] = p.alignment(i);
            stepFirst[k] = p.first(i);
            stepLast[k] = p.last(i);
        }
        int sections = Math.max(1, distinct - 1);
        int l = 1;
        while (l < sections) {
            l <<= 1;
        }
        leaves = l;
        treeMax = new long[2 * l];
        treeRaise = new long[2 * l];
        heap = new int[m];
        key = new long[m];
        where = new int[m];
        if (exact) {
            conflictStart = new int[m + 1];
            int total = 0;
            for (int a = 0; a < m; a++) {
                for (int b = 0; b < m; b++) {
                    if (a != b && stepFirst[a] <= stepLast[b] && stepFirst[b] <= stepLast[a]) {
                        total++;
                    }
                }
                conflictStart[a + 1] = total;
            }
            conflicts = new int[total];
            for (int a = 0, c = 0; a < m; a++) {
                for (int b = 0; b < m; b++) {
                    if (a != b && stepFirst[a] <= stepLast[b] && stepFirst[b] <= stepLast[a]) {
                        conflicts[c++] = b;
                    }
                }
            }
            floorTop = new long[m];
            placed = new boolean[m];
        } else {
            conflictStart = null;
            conflicts = null;
            floorTop = null;
            placed = null;
        }
        int fixed = 0;
        for (int i = 0; i < p.size(); i++) {
            if (p.isFixed(i) && p.reserved(i) > 0) {
                fixed++;
            }
        }
        fixedFirst = new int[fixed];
        fixedLast = new int[fixed];
        fixedStart = new long[fixed];
        fixedEnd = new long[fixed];
        for (int i = 0, f = 0; i < p.size(); i++) {
            if (p.isFixed(i) && p.reserved(i) > 0) {
                fixedFirst[f] = p.first(i);
                fixedLast[f] = p.last(i);
                fixedStart[f] = p.fixedOffset(i);
                fixedEnd[f] = Checked.saturatingAdd(p.fixedOffset(i), p.reserved(i));
                f++;
            }
        }
        Integer[] byStart = new Integer[fixed];
        for (int f = 0; f < fixed; f++) {
            byStart[f] = f;
        }
        java.util.Arrays.sort(byStart, (a, b) -> Long.compare(fixedStart[a], fixedStart[b]));
        // per item, the union of the fixed items sharing a step with it, as disjoint intervals by offset
        fixedListStart = new int[m + 1];
        long[] ms = new long[fixed];
        long[] me = new long[fixed];
        long[] allStart = new long[0];
        long[] allEnd = new long[0];
        int total = 0;
        for (int k = 0; k < m; k++) {
            int c = 0;
            for (int f : byStart) {
                if (fixedFirst[f] <= stepLast[k] && stepFirst[k] <= fixedLast[f]) {
                    if (c > 0 && fixedStart[f] <= me[c - 1]) {
                        me[c - 1] = Math.max(me[c - 1], fixedEnd[f]);
                    } else {
                        ms[c] = fixedStart[f];
                        me[c++] = fixedEnd[f];
                    }
                }
            }
            if (total + c > allStart.length) {
                allStart = java.util.Arrays.copyOf(allStart, Math.max(2 * allStart.length, total + c));
                allEnd = java.util.Arrays.copyOf(allEnd, allStart.length);
            }
            System.arraycopy(ms, 0, allStart, total, c);
            System.arraycopy(me, 0, allEnd, total, c);
            total += c;
            fixedListStart[k + 1] = total;
        }
        obstacleStart = java.util.Arrays.copyOf(allStart, total);
        obstacleEnd = java.util.Arrays.copyOf(allEnd, total);
        obstacleNext = new int[m];
    }

    int count() {
        return items.length;
    }

    /** Problem index of dive item {@code k}. */
    int item(int k) {
        return items[k];
    }

    long size(int k) {
        return size[k];
    }

    int stepFirst(int k) {
        return stepFirst[k];
    }

    int stepLast(int k) {
        return stepLast[k];
    }

    /**
     * Places every dive item; {@code offset[k]} receives the offset of dive item {@code k}.
     * Returns the highest end among the dive items (0 when there are none).
     */
    long run(double[] prio, long[] offset) {
        return conflicts != null ? scan(prio, offset) : heapDive(prio, offset);
    }

    /** The dive with candidates kept exact through the conflict lists, in an indexed heap (small problems). */
    private long scan(double[] prio, long[] offset) {
        int m = items.length;
        priority = prio;
        java.util.Arrays.fill(floorTop, 0);
        java.util.Arrays.fill(placed, false);
        heapSize = 0;
        for (int k = 0; k < m; k++) {
            obstacleNext[k] = fixedListStart[k];
            key[k] = lift(k, 0);
            heap[heapSize] = k;
            where[k] = heapSize++;
        }
        for (int h = heapSize / 2 - 1; h >= 0; h--) {
            down(h);
        }
        long height = 0;
        while (heapSize > 0) {
            int best = heap[0];
            heap[0] = heap[--heapSize];
            where[heap[0]] = 0;
            if (heapSize > 0) {
                down(0);
            }
            placed[best] = true;
            offset[best] = key[best];
            long top = Checked.saturatingAdd(key[best], size[best]);
            height = Math.max(height, top);
            for (int c = conflictStart[best]; c < conflictStart[best + 1]; c++) {
                int j = conflicts[c];
                if (!placed[j] && top > floorTop[j]) {
                    floorTop[j] = top;
                    long cand = lift(j, Math.max(alignUp(top, align[j]), key[j]));
                    if (cand > key[j]) {
                        key[j] = cand;
                        down(where[j]);
                    }
                }
            }
        }
        return height;
    }

    /** The dive with a lazy heap of candidates and a segment tree of floors (large problems). */
    private long heapDive(double[] prio, long[] offset) {
        int m = items.length;
        priority = prio;
        java.util.Arrays.fill(treeMax, 0);
        java.util.Arrays.fill(treeRaise, 0);
        heapSize = 0;
        for (int k = 0; k < m; k++) {
            obstacleNext[k] = fixedListStart[k];
            key[k] = 0;
            heap[heapSize++] = k;
        }
        for (int h = heapSize / 2 - 1; h >= 0; h--) {
            down(h);
        }
        long height = 0;
        while (heapSize > 0) {
            int k = heap[0];
            long floor = query(1, 0, leaves - 1, sectionFirst[k], sectionLast[k]);
            long cand = lift(k, Math.max(alignUp(floor, align[k]), key[k]));
            if (cand > key[k]) {
                key[k] = cand;
                down(0);
                continue;
            }
            heap[0] = heap[--heapSize];
            if (heapSize > 0) {
                down(0);
            }
            offset[k] = cand;
            long top = Checked.saturatingAdd(cand, size[k]);
            raise(1, 0, leaves - 1, sectionFirst[k], sectionLast[k], top);
            height = Math.max(height, top);
        }
        return height;
    }

    private static long alignUp(long at, long alignment) {
        return alignment == 1 ? at : Checked.saturatingAlignUp(at, alignment);
    }

    /**
     * The lowest aligned offset from {@code at} up where dive item {@code k} touches no fixed
     * item. Within a dive the callers never ask below the item's last answer (its key), so the
     * obstacles below that are skipped once.
     */
    private long lift(int k, long at) {
        int q = obstacleNext[k];
        int to = fixedListStart[k + 1];
        long cand = at;
        while (q < to) {
            if (obstacleEnd[q] <= cand) {
                q++;
                continue;
            }
            if (obstacleStart[q] >= Checked.saturatingAdd(cand, size[k])) {
                break;
            }
            cand = alignUp(obstacleEnd[q], align[k]);
            q++;
        }
        obstacleNext[k] = q;
        return cand;
    }

    private boolean before(int a, int b) {
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
            where[heap[h]] = h;
            h = c;
        }
        heap[h] = x;
        where[x] = h;
    }

    /** The highest floor over sections {@code [l, r]}. */
    private long query(int node, int lo, int hi, int l, int r) {
        if (l <= lo && hi <= r) {
            return treeMax[node];
        }
        int mid = (lo + hi) >>> 1;
        long best = treeRaise[node];
        if (l <= mid) {
            best = Math.max(best, query(2 * node, lo, mid, l, r));
        }
        if (r > mid) {
            best = Math.max(best, query(2 * node + 1, mid + 1, hi, l, r));
        }
        return best;
    }

    /** Raises the floors of sections {@code [l, r]} to at least {@code v}. */
    private void raise(int node, int lo, int hi, int l, int r, long v) {
        if (v <= treeRaise[node]) {
            return;
        }
        if (l <= lo && hi <= r) {
            treeRaise[node] = v;
            treeMax[node] = Math.max(treeMax[node], v);
            return;
        }
        int mid = (lo + hi) >>> 1;
        if (l <= mid) {
            raise(2 * node, lo, mid, l, r, v);
        }
        if (r > mid) {
            raise(2 * node + 1, mid + 1, hi, l, r, v);
        }
        treeMax[node] = Math.max(treeMax[node], v);
    }
}
