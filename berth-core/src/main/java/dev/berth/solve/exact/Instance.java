package dev.berth.solve.exact;

import dev.berth.arith.Checked;
import dev.berth.solve.SpaceProblem;

import java.util.Arrays;

/**
 * The part of a {@link SpaceProblem} the exact search works on: the items that take bytes
 * (reserved size above zero), renumbered {@code 0..n-1}, with their time structure
 * precomputed.
 *
 * <p><b>Sections.</b> Steps are cut into <em>sections</em>, the maximal sets of items live at
 * one moment (the maximal cliques of the interval graph): a section closes whenever an item
 * ends after some item started since the previous section closed. Every item is live in a
 * contiguous range of sections {@code secFirst..secLast}; two items overlap in time exactly
 * when their section ranges intersect. The items of one section are stacked in any placement,
 * so the sum of their sizes bounds the height from below, and the items that still have to be
 * placed in a section must fit above the lowest place any of them can go.
 *
 * <p><b>Cuts.</b> {@code crossing[s]} counts the items live in both section {@code s} and
 * {@code s+1}. When every item crossing a boundary is placed, the items left on either side
 * no longer interact and are solved separately.
 */
final class Instance {
    /** Items of the search. */
    final int n;
    /** Index of each item in the original problem. */
    final int[] original;
    final long[] size;
    final long[] align;
    /** Fixed offset, or -1 for an item the search places. */
    final long[] fixedAt;
    final int[] secFirst;
    final int[] secLast;
    /** Items sharing a step with each item (never the item itself). */
    final int[][] overlaps;
    /** Number of sections. */
    final int sections;
    /** Items live in each section. */
    final int[][] sectionItems;
    /** Items crossing from section s to s+1, for {@code s < sections - 1}. */
    final int[] crossing;
    /** Sum of the sizes live in each section; each at most {@link #limit} (checked by {@link #build}). */
    final long[] sectionTotal;
    final long limit;
    /** Lifetime length in steps (for orderings). */
    final long[] width;
    /**
     * The previous item identical to each free item (same size, alignment and steps), or -1:
     * interchangeable items are placed in index order (symmetry breaking).
     */
    final int[] twin;

    private Instance(int[] original, long[] size, long[] align, long[] fixedAt, long[] width, int[] secFirst,
                     int[] secLast, int sections, long limit, int[] twin) {
        this.twin = twin;
        this.n = original.length;
        this.original = original;
        this.size = size;
        this.align = align;
        this.fixedAt = fixedAt;
        this.width = width;
        this.secFirst = secFirst;
        this.secLast = secLast;
        this.sections = sections;
        this.limit = limit;
        int[] count = new int[sections];
        for (int i = 0; i < n; i++) {
            for (int s = secFirst[i]; s <= secLast[i]; s++) {
                count[s]++;
            }
        }
        sectionItems = new int[sections][];
        for (int s = 0; s < sections; s++) {
            sectionItems[s] = new int[count[s]];
            count[s] = 0;
        }
        sectionTotal = new long[sections];
        for (int i = 0; i < n; i++) {
            for (int s = secFirst[i]; s <= secLast[i]; s++) {
                sectionItems[s][count[s]++] = i;
                sectionTotal[s] = Checked.saturatingAdd(sectionTotal[s], size[i]);
            }
        }
        crossing = new int[Math.max(0, sections - 1)];
        for (int i = 0; i < n; i++) {
            for (int s = secFirst[i]; s < secLast[i]; s++) {
                crossing[s]++;
            }
        }
        overlaps = buildOverlaps();
    }

    /**
     * The instance of the items of {@code p} with a positive reserved size. Zero-size items take
     * no bytes and conflict with nothing; the caller places them.
     */
    static Instance build(SpaceProblem p) {
        int total = p.size();
        int n = 0;
        for (int i = 0; i < total; i++) {
            if (p.reserved(i) > 0) {
                n++;
            }
        }
        int[] original = new int[n];
        long[] size = new long[n];
        long[] align = new long[n];
        long[] fixedAt = new long[n];
        long[] width = new long[n];
        long[] first = new long[n];
        long[] end = new long[n];
        for (int i = 0, k = 0; i < total; i++) {
            if (p.reserved(i) > 0) {
                original[k] = i;
                size[k] = p.reserved(i);
                align[k] = p.isFixed(i) ? 1 : p.alignment(i);
                fixedAt[k] = p.isFixed(i) ? p.fixedOffset(i) : -1;
                first[k] = p.first(i);
                end[k] = (long) p.last(i) + 1;
                width[k] = end[k] - first[k];
                k++;
            }
        }
        int[] secFirst = new int[n];
        int[] secLast = new int[n];
        int sections = sweep(first, end, secFirst, secLast);
        int[] twin = new int[n];
        java.util.Map<java.util.List<Long>, Integer> lastSeen = new java.util.HashMap<>();
        for (int k = 0; k < n; k++) {
            twin[k] = -1;
            if (fixedAt[k] < 0) {
                Integer prev = lastSeen.put(java.util.List.of(size[k], align[k], first[k], end[k]), k);
                if (prev != null) {
                    twin[k] = prev;
                }
            }
        }
        return new Instance(original, size, align, fixedAt, width, secFirst, secLast, sections, p.limit(), twin);
    }

    /**
     * Assigns every item its section range; returns the number of sections. Events are
     * processed in time order, ends before starts at the same time (lifetimes are half-open
     * here: {@code [first, last + 1)}).
     */
    private static int sweep(long[] first, long[] end, int[] secFirst, int[] secLast) {
        int n = first.length;
        long[] ev = new long[2 * n];
        // unsigned key: time (at most 2^31) in the high 32 bits, then 0 for an end and 1 for a
        // start, then the item; the sign bit is flipped so that a signed sort gives the unsigned order
        for (int i = 0; i < n; i++) {
            ev[2 * i] = ((first[i] << 32) | (1L << 31) | i) ^ Long.MIN_VALUE;
            ev[2 * i + 1] = ((end[i] << 32) | i) ^ Long.MIN_VALUE;
        }
        Arrays.sort(ev);
        int sections = 0;
        boolean startedSinceClose = false;
        for (long key : ev) {
            long e = key ^ Long.MIN_VALUE;
            int i = (int) (e & 0x7FFF_FFFFL);
            boolean start = (e & (1L << 31)) != 0;
            if (start) {
                secFirst[i] = sections;
                startedSinceClose = true;
            } else {
                if (startedSinceClose) {
                    sections++;
                    startedSinceClose = false;
                }
                secLast[i] = sections - 1;
            }
        }
        return sections;
    }

    private int[][] buildOverlaps() {
        int[] count = new int[n];
        int[][] out = new int[n][];
        // items of each section are known: two items overlap iff they share a section; use the
        // first shared section (the later of the two first sections) to list each pair once
        for (int s = 0; s < sections; s++) {
            for (int a : sectionItems[s]) {
                for (int b : sectionItems[s]) {
                    if (a < b && Math.max(secFirst[a], secFirst[b]) == s) {
                        count[a]++;
                        count[b]++;
                    }
                }
            }
        }
        for (int i = 0; i < n; i++) {
            out[i] = new int[count[i]];
            count[i] = 0;
        }
        for (int s = 0; s < sections; s++) {
            for (int a : sectionItems[s]) {
                for (int b : sectionItems[s]) {
                    if (a < b && Math.max(secFirst[a], secFirst[b]) == s) {
                        out[a][count[a]++] = b;
                        out[b][count[b]++] = a;
                    }
                }
            }
        }
        return out;
    }

    /** The largest sum of sizes live in one section (the max-live lower bound), saturating. */
    long peak() {
        long best = 0;
        for (long t : sectionTotal) {
            best = Math.max(best, t);
        }
        return best;
    }

    /** True when items {@code a} and {@code b} share a step. */
    boolean overlap(int a, int b) {
        return secFirst[a] <= secLast[b] && secFirst[b] <= secLast[a];
    }
}
