package dev.berth.solve.skyline;

import dev.berth.solve.SpaceProblem;
import dev.berth.solve.heuristic.HeuristicSolver;
import dev.berth.solve.heuristic.Sorting;

import dev.berth.arith.Checked;

import java.util.Arrays;

/**
 * One greedy "skyline" descent over the free, non-empty items of a {@link SpaceProblem}
 * (MiniMalloc's canonical dive without backtracking). Each item has a floor, the highest top
 * among the already placed items it shares a step with; its candidate offset is its floor,
 * aligned up, then lifted over its obstacles (fixed items, and in a {@link #runKept kept run}
 * the items that stay where they are). Each step places the unplaced item with the lowest
 * candidate, ties going to the higher priority, then the lower index, and raises the floors
 * of the items it shares a step with.
 *
 * <p>Three ways to keep the candidates, giving the same dives ({@link Mode}):
 * <ul>
 *   <li>{@code SCAN}: candidates kept exact through precomputed conflict lists, the next item
 *   found by scanning the unplaced ones (fastest up to about a thousand items);</li>
 *   <li>{@code HEAP}: the same exact candidates in an indexed heap (more items);</li>
 *   <li>{@code LAZY}: no conflict lists (their total would exceed {@link #CONFLICT_LIMIT}):
 *   a lazy heap of candidates (floors only rise, so a stored candidate is a lower bound that
 *   is refreshed when it reaches the top) and a segment tree of the floors of the time
 *   sections. A lazy dive cannot run on a subset ({@link #canKeep()} is false).</li>
 * </ul>
 * All arrays are allocated once (the obstacle lists of kept runs grow when needed); a dive
 * allocates nothing.
 */
final class SkylineDive {
    /** How the candidates are kept; {@code null} in the constructor chooses by size. */
    enum Mode { SCAN, HEAP, LAZY }

    /** Up to this many items in a dive, the next item is found by a scan, else in a heap. */
    static final int SCAN_LIMIT = 1024;
    /** Above this many conflict-list entries, dives are lazy. */
    static final long CONFLICT_LIMIT = 4_000_000L;

    private final int m;
    private final int[] items;
    /** Dive items {@code 0..m-1}, then fixed items with bytes {@code m..m+fx-1}. */
    private final long[] size;
    private final int[] first;
    private final int[] last;
    /** Offsets of the fixed items at {@code m..}; of the kept dive items during a kept run. */
    private final long[] pos;
    private final long[] align;
    private final Mode forced;
    private final boolean lazy;

    /** Per dive item, the dive and fixed items sharing a step with it (compressed rows); null when lazy. */
    private final int[] conflictStart;
    private final int[] conflicts;

    /** Per dive item, the fixed items sharing a step with it, merged, by increasing offset. */
    private final int[] fixedFrom;
    private final long[] fixedStart;
    private final long[] fixedEnd;
    /** Obstacles of a kept run, per active item from {@code keptFrom[k]} to {@code keptTo[k]}. */
    private final int[] keptFrom;
    private final int[] keptTo;
    private long[] keptStart = new long[0];
    private long[] keptEnd = new long[0];
    /** Conflicts among the active items of a kept run, per active item from {@code keptConflictFrom[k]}. */
    private final int[] keptConflictFrom;
    private final int[] keptConflictTo;
    private int[] keptConflicts = new int[0];

    /** The obstacle lists of the current run. */
    private int[] obsFrom;
    private int[] obsTo;
    private long[] obsStart;
    private long[] obsEnd;
    /** Per item, the first obstacle not yet below its candidate in the current dive. */
    private final int[] obsNext;

    private final long[] key;
    private final long[] floorTop;
    /** {@code stamp[k] == epoch}: item k is active and not yet placed in the current dive. */
    private final int[] stamp;
    private int epoch;
    private final int[] mark;
    private int markEpoch;
    private final int[] pool;
    private final int[] heap;
    private final int[] where;
    private final long[] heapKey;
    private int heapSize;
    private double[] priority;

    /** Lazy mode: time sections and the segment tree of their floors. */
    private final int[] sectionFirst;
    private final int[] sectionLast;
    private final int leaves;
    private final long[] treeMax;
    private final long[] treeRaise;

    SkylineDive(SpaceProblem p, int[] items) {
        this(p, items, null);
    }

    /** {@code mode}: force one way of keeping the candidates (tests), or null to choose by size. */
    SkylineDive(SpaceProblem p, int[] items, Mode mode) {
        this.items = items;
        this.m = items.length;
        this.forced = mode;
        int fx = 0;
        for (int i = 0; i < p.size(); i++) {
            if (p.isFixed(i) && p.reserved(i) > 0) {
                fx++;
            }
        }
        int all = m + fx;
        size = new long[all];
        first = new int[all];
        last = new int[all];
        pos = new long[all];
        align = new long[m];
        for (int k = 0; k < m; k++) {
            int i = items[k];
            size[k] = p.reserved(i);
            first[k] = p.first(i);
            last[k] = p.last(i);
            align[k] = p.alignment(i);
        }
        for (int i = 0, f = m; i < p.size(); i++) {
            if (p.isFixed(i) && p.reserved(i) > 0) {
                size[f] = p.reserved(i);
                first[f] = p.first(i);
                last[f] = p.last(i);
                pos[f] = p.fixedOffset(i);
                f++;
            }
        }
        key = new long[m];
        obsNext = new int[m];
        heap = new int[m];
        heapKey = new long[m];
        where = new int[m];
        int[][] lists = mode == Mode.LAZY ? null : conflictLists(all);
        lazy = lists == null;
        if (!lazy) {
            conflictStart = lists[0];
            conflicts = lists[1];
            floorTop = new long[m];
            stamp = new int[m];
            mark = new int[m];
            pool = new int[m];
            keptFrom = new int[m];
            keptTo = new int[m];
            keptConflictFrom = new int[m];
            keptConflictTo = new int[m];
        } else {
            keptConflictFrom = null;
            keptConflictTo = null;
            conflictStart = null;
            conflicts = null;
            floorTop = null;
            stamp = null;
            mark = null;
            pool = null;
            keptFrom = null;
            keptTo = null;
        }
        // per item, the union of the fixed items sharing a step with it, as disjoint intervals by offset
        Integer[] byStart = new Integer[fx];
        for (int f = 0; f < fx; f++) {
            byStart[f] = m + f;
        }
        Arrays.sort(byStart, (a, b) -> Long.compare(pos[a], pos[b]));
        fixedFrom = new int[m + 1];
        long[] ms = new long[fx];
        long[] me = new long[fx];
        long[] allStart = new long[0];
        long[] allEnd = new long[0];
        int total = 0;
        for (int k = 0; k < m; k++) {
            int c = 0;
            for (int f : byStart) {
                if (first[f] <= last[k] && first[k] <= last[f]) {
                    long end = Checked.saturatingAdd(pos[f], size[f]);
                    if (c > 0 && pos[f] <= me[c - 1]) {
                        me[c - 1] = Math.max(me[c - 1], end);
                    } else {
                        ms[c] = pos[f];
                        me[c++] = end;
                    }
                }
            }
            if (total + c > allStart.length) {
                allStart = Arrays.copyOf(allStart, Math.max(2 * allStart.length, total + c));
                allEnd = Arrays.copyOf(allEnd, allStart.length);
            }
            System.arraycopy(ms, 0, allStart, total, c);
            System.arraycopy(me, 0, allEnd, total, c);
            total += c;
            fixedFrom[k + 1] = total;
        }
        fixedStart = Arrays.copyOf(allStart, total);
        fixedEnd = Arrays.copyOf(allEnd, total);
        if (lazy) {
            long[] bounds = new long[2 * m];
            for (int k = 0; k < m; k++) {
                bounds[2 * k] = first[k];
                bounds[2 * k + 1] = (long) last[k] + 1;
            }
            Arrays.sort(bounds);
            int distinct = 0;
            for (int k = 0; k < bounds.length; k++) {
                if (k == 0 || bounds[k] != bounds[k - 1]) {
                    bounds[distinct++] = bounds[k];
                }
            }
            sectionFirst = new int[m];
            sectionLast = new int[m];
            for (int k = 0; k < m; k++) {
                sectionFirst[k] = Arrays.binarySearch(bounds, 0, distinct, first[k]);
                sectionLast[k] = Arrays.binarySearch(bounds, 0, distinct, (long) last[k] + 1) - 1;
            }
            int sections = Math.max(1, distinct - 1);
            int l = 1;
            while (l < sections) {
                l <<= 1;
            }
            leaves = l;
            treeMax = new long[2 * l];
            treeRaise = new long[2 * l];
        } else {
            sectionFirst = null;
            sectionLast = null;
            leaves = 0;
            treeMax = null;
            treeRaise = null;
        }
    }

    /**
     * The conflict lists of the dive items (each pair of items live at a common step, found by
     * a sweep in start order), or null when they would hold more than {@link #CONFLICT_LIMIT}
     * entries.
     */
    private int[][] conflictLists(int all) {
        Integer[] boxed = new Integer[all];
        for (int k = 0; k < all; k++) {
            boxed[k] = k;
        }
        Arrays.sort(boxed, (a, b) -> first[a] != first[b] ? Integer.compare(first[a], first[b]) : Integer.compare(a, b));
        int[] order = new int[all];
        for (int k = 0; k < all; k++) {
            order[k] = boxed[k];
        }
        int[] degree = new int[m + 1];
        long total = 0;
        for (int x = 0; x < all; x++) {
            int a = order[x];
            for (int y = x + 1; y < all && first[order[y]] <= last[a]; y++) {
                int b = order[y];
                if (a < m) {
                    degree[a]++;
                    total++;
                }
                if (b < m) {
                    degree[b]++;
                    total++;
                }
            }
            if (total > CONFLICT_LIMIT) {
                return null;
            }
        }
        int[] start = new int[m + 1];
        for (int k = 0; k < m; k++) {
            start[k + 1] = start[k] + degree[k];
        }
        int[] fill = Arrays.copyOf(start, m);
        int[] list = new int[(int) total];
        for (int x = 0; x < all; x++) {
            int a = order[x];
            for (int y = x + 1; y < all && first[order[y]] <= last[a]; y++) {
                int b = order[y];
                if (a < m) {
                    list[fill[a]++] = b;
                }
                if (b < m) {
                    list[fill[b]++] = a;
                }
            }
        }
        return new int[][]{start, list};
    }

    int count() {
        return m;
    }

    /** Problem index of dive item {@code k}. */
    int item(int k) {
        return items[k];
    }

    long size(int k) {
        return size[k];
    }

    int stepFirst(int k) {
        return first[k];
    }

    int stepLast(int k) {
        return last[k];
    }

    /** True when dives can run on a subset of the items with the others kept ({@link #keep}, {@link #runKept}). */
    boolean canKeep() {
        return !lazy;
    }

    /**
     * Places every dive item; {@code offset[k]} receives the offset of dive item {@code k}.
     * Returns the highest end among the dive items (0 when there are none).
     */
    long run(double[] prio, long[] offset) {
        if (lazy) {
            return lazyDive(prio, offset);
        }
        for (int k = 0; k < m; k++) {
            pool[k] = k;
        }
        return exact(pool, m, prio, offset, fixedFrom, fixedStart, fixedEnd, true);
    }

    /**
     * Prepares {@link #runKept kept runs} of the items {@code active[0..count)}: every other
     * dive item stays at {@code at[k]} and becomes, with the fixed items, an obstacle of the
     * active items it shares a step with.
     */
    void keep(int[] active, int count, long[] at) {
        assert !lazy;
        if (++markEpoch == Integer.MAX_VALUE) {
            Arrays.fill(mark, 0);
            markEpoch = 1;
        }
        int total = 0;
        for (int q = 0; q < count; q++) {
            int k = active[q];
            mark[k] = markEpoch;
            total += conflictStart[k + 1] - conflictStart[k];
        }
        if (keptStart.length < total) {
            keptStart = new long[Math.max(total, 2 * keptStart.length)];
            keptEnd = new long[keptStart.length];
        }
        if (keptConflicts.length < total) {
            keptConflicts = new int[Math.max(total, 2 * keptConflicts.length)];
        }
        int t = 0;
        int u = 0;
        for (int q = 0; q < count; q++) {
            int k = active[q];
            keptFrom[k] = t;
            keptConflictFrom[k] = u;
            for (int c = conflictStart[k]; c < conflictStart[k + 1]; c++) {
                int j = conflicts[c];
                if (j >= m || mark[j] != markEpoch) {
                    long s = j >= m ? pos[j] : at[j];
                    keptStart[t] = s;
                    keptEnd[t++] = Checked.saturatingAdd(s, size[j]);
                } else {
                    keptConflicts[u++] = j;
                }
            }
            keptConflictTo[k] = u;
            Sorting.sortByKey(keptStart, keptEnd, keptFrom[k], t);
            // merge touching obstacles: the lift then skips a stack of kept items at once
            int w = keptFrom[k];
            for (int r = keptFrom[k]; r < t; r++) {
                if (w > keptFrom[k] && keptStart[r] <= keptEnd[w - 1]) {
                    keptEnd[w - 1] = Math.max(keptEnd[w - 1], keptEnd[r]);
                } else {
                    keptStart[w] = keptStart[r];
                    keptEnd[w++] = keptEnd[r];
                }
            }
            keptTo[k] = w;
            t = w;
        }
    }

    /**
     * Places the active items of the last {@link #keep} around the kept ones; {@code offset[k]}
     * receives the offset of active item {@code k}. Returns the highest end among them.
     */
    long runKept(int[] active, int count, double[] prio, long[] offset) {
        return exact(active, count, prio, offset, null, keptStart, keptEnd, false);
    }

    /** The dive with exact candidates kept through the conflict lists. */
    private long exact(int[] active, int count, double[] prio, long[] offset, int[] from, long[] os, long[] oe,
                       boolean all) {
        priority = prio;
        obsStart = os;
        obsEnd = oe;
        if (++epoch == Integer.MAX_VALUE) {
            Arrays.fill(stamp, 0);
            epoch = 1;
        }
        for (int q = 0; q < count; q++) {
            int k = active[q];
            stamp[k] = epoch;
            floorTop[k] = 0;
            if (all) {
                obsNext[k] = from[k];
            } else {
                obsNext[k] = keptFrom[k];
            }
        }
        obsFrom = all ? from : keptFrom;
        obsTo = all ? null : keptTo;
        boolean scan = forced == Mode.SCAN || forced != Mode.HEAP && count <= SCAN_LIMIT;
        int left = count;
        if (scan) {
            if (pool != active) {
                System.arraycopy(active, 0, pool, 0, count);
            }
            for (int q = 0; q < count; q++) {
                key[pool[q]] = lift(pool[q], 0);
            }
        } else {
            heapSize = 0;
            for (int q = 0; q < count; q++) {
                int k = active[q];
                key[k] = lift(k, 0);
                heap[heapSize] = k;
                heapKey[heapSize++] = key[k];
            }
            for (int h = heapSize / 2 - 1; h >= 0; h--) {
                sift(h);
            }
        }
        long height = 0;
        while (left > 0) {
            int best;
            if (scan) {
                int bi = 0;
                best = pool[0];
                long bk = key[best];
                for (int q = 1; q < left; q++) {
                    int x = pool[q];
                    long kx = key[x];
                    if (kx < bk || kx == bk && (prio[x] > prio[best] || prio[x] == prio[best] && x < best)) {
                        best = x;
                        bk = kx;
                        bi = q;
                    }
                }
                pool[bi] = pool[--left];
            } else {
                // the heap holds each unplaced item with its candidate when it was last sifted, a
                // lower bound of the current one: refresh the top until it is current
                while (heapKey[0] < key[heap[0]]) {
                    heapKey[0] = key[heap[0]];
                    sift(0);
                }
                best = heap[0];
                heap[0] = heap[--heapSize];
                heapKey[0] = heapKey[heapSize];
                if (heapSize > 0) {
                    sift(0);
                }
                left--;
            }
            stamp[best] = 0;
            long at = key[best];
            offset[best] = at;
            long top = Checked.saturatingAdd(at, size[best]);
            height = Math.max(height, top);
            int[] list = all ? conflicts : keptConflicts;
            for (int c = all ? conflictStart[best] : keptConflictFrom[best],
                 to = all ? conflictStart[best + 1] : keptConflictTo[best]; c < to; c++) {
                int j = list[c];
                if (j < m && stamp[j] == epoch && top > floorTop[j]) {
                    floorTop[j] = top;
                    long cand = lift(j, Math.max(Checked.saturatingAlignUp(top, align[j]), key[j]));
                    key[j] = cand;
                }
            }
        }
        return height;
    }

    /** The dive with a lazy heap of candidates and a segment tree of floors (no conflict lists). */
    private long lazyDive(double[] prio, long[] offset) {
        priority = prio;
        obsFrom = fixedFrom;
        obsTo = null;
        obsStart = fixedStart;
        obsEnd = fixedEnd;
        Arrays.fill(treeMax, 0);
        Arrays.fill(treeRaise, 0);
        heapSize = 0;
        for (int k = 0; k < m; k++) {
            obsNext[k] = fixedFrom[k];
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
            long cand = lift(k, Math.max(Checked.saturatingAlignUp(floor, align[k]), key[k]));
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

    /**
     * The lowest aligned offset from {@code at} up where dive item {@code k} touches none of
     * its obstacles (sorted by start). Within a dive the callers never ask below the item's
     * last answer (its key), so the obstacles below that are skipped once.
     */
    private long lift(int k, long at) {
        int q = obsNext[k];
        int to = obsTo == null ? obsFrom[k + 1] : obsTo[k];
        long cand = at;
        long sz = size[k];
        while (q < to) {
            if (obsEnd[q] <= cand) {
                q++;
                continue;
            }
            if (obsStart[q] >= Checked.saturatingAdd(cand, sz)) {
                break;
            }
            cand = Checked.saturatingAlignUp(obsEnd[q], align[k]);
            q++;
        }
        obsNext[k] = q;
        return cand;
    }

    /** Sift-down in the heap of candidate snapshots ({@code heapKey}), ties as in {@link #before}. */
    private void sift(int h) {
        int x = heap[h];
        long kx = heapKey[h];
        double px = priority[x];
        while (true) {
            int c = 2 * h + 1;
            if (c >= heapSize) {
                break;
            }
            if (c + 1 < heapSize && earlier(heapKey[c + 1], heap[c + 1], heapKey[c], heap[c])) {
                c++;
            }
            int y = heap[c];
            long ky = heapKey[c];
            if (!(ky < kx || ky == kx && (priority[y] > px || priority[y] == px && y < x))) {
                break;
            }
            heap[h] = y;
            heapKey[h] = ky;
            h = c;
        }
        heap[h] = x;
        heapKey[h] = kx;
    }

    private boolean earlier(long ka, int a, long kb, int b) {
        if (ka != kb) {
            return ka < kb;
        }
        double pa = priority[a];
        double pb = priority[b];
        if (pa != pb) {
            return pa > pb;
        }
        return a < b;
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
