package dev.berth.solve.skyline;

import java.util.Arrays;

/**
 * The floors of the time sections of a lazy dive: steps cut at every item's first step and
 * after its last, each item covering a range of sections, and a segment tree over them that
 * answers the highest floor over an item's sections and raises the floors of an item's
 * sections to its top.
 */
final class SectionFloors {
    private final int[] sectionFirst;
    private final int[] sectionLast;
    private final int leaves;
    private final long[] treeMax;
    private final long[] treeRaise;

    SectionFloors(DiveItems d) {
        int m = d.m;
        long[] bounds = new long[2 * m];
        for (int k = 0; k < m; k++) {
            bounds[2 * k] = d.first[k];
            bounds[2 * k + 1] = (long) d.last[k] + 1;
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
            sectionFirst[k] = Arrays.binarySearch(bounds, 0, distinct, d.first[k]);
            sectionLast[k] = Arrays.binarySearch(bounds, 0, distinct, (long) d.last[k] + 1) - 1;
        }
        int sections = Math.max(1, distinct - 1);
        int l = 1;
        while (l < sections) {
            l <<= 1;
        }
        leaves = l;
        treeMax = new long[2 * l];
        treeRaise = new long[2 * l];
    }

    /** Every floor back to 0, for a new dive. */
    void clear() {
        Arrays.fill(treeMax, 0);
        Arrays.fill(treeRaise, 0);
    }

    /** The highest floor over the sections of dive item {@code k}. */
    long floor(int k) {
        return query(1, 0, leaves - 1, sectionFirst[k], sectionLast[k]);
    }

    /** Raises the floors of the sections of dive item {@code k} to at least {@code top}. */
    void raise(int k, long top) {
        raise(1, 0, leaves - 1, sectionFirst[k], sectionLast[k], top);
    }

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
