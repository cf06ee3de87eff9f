package dev.berth.solve.skyline;

import dev.berth.arith.Checked;
import dev.berth.solve.heuristic.Sorting;

import java.util.Arrays;

/**
 * Per dive item, the byte ranges it must not touch, by increasing offset, touching ones merged
 * (a lift then skips a stack of obstacles at once): item {@code k}'s ranges are
 * {@code [start[q], end[q])} for {@code from[k] <= q < to[k]}. Either the fixed items sharing a
 * step with each dive item ({@link #ofFixed}, built once), or the obstacles of a kept run,
 * rebuilt by {@link KeptRun} for each run (the range arrays grow when needed).
 */
final class ObstacleLists {
    final int[] from;
    final int[] to;
    long[] start;
    long[] end;

    /** Empty lists for {@code m} dive items. */
    ObstacleLists(int m) {
        from = new int[m];
        to = new int[m];
        start = new long[0];
        end = new long[0];
    }

    /** The fixed items sharing a step with each dive item, merged. */
    static ObstacleLists ofFixed(DiveItems d) {
        int m = d.m;
        int fx = d.all() - m;
        Integer[] byOffset = new Integer[fx];
        for (int f = 0; f < fx; f++) {
            byOffset[f] = m + f;
        }
        Arrays.sort(byOffset, (a, b) -> Long.compare(d.fixedAt[a], d.fixedAt[b]));
        ObstacleLists o = new ObstacleLists(m);
        long[] ms = new long[fx];
        long[] me = new long[fx];
        int total = 0;
        for (int k = 0; k < m; k++) {
            int c = 0;
            for (int f : byOffset) {
                if (d.shareAStep(f, k)) {
                    long end = Checked.saturatingAdd(d.fixedAt[f], d.size[f]);
                    if (c > 0 && d.fixedAt[f] <= me[c - 1]) {
                        me[c - 1] = Math.max(me[c - 1], end);
                    } else {
                        ms[c] = d.fixedAt[f];
                        me[c++] = end;
                    }
                }
            }
            o.ensure(total + c);
            System.arraycopy(ms, 0, o.start, total, c);
            System.arraycopy(me, 0, o.end, total, c);
            o.from[k] = total;
            total += c;
            o.to[k] = total;
        }
        o.start = Arrays.copyOf(o.start, total);
        o.end = Arrays.copyOf(o.end, total);
        return o;
    }

    /** Room for {@code total} ranges, the ones held kept. */
    void ensure(int total) {
        if (start.length < total) {
            start = Arrays.copyOf(start, Math.max(total, 2 * start.length));
            end = Arrays.copyOf(end, start.length);
        }
    }

    /**
     * Sorts the ranges {@code [from, t)} by start and merges the touching ones in place; they
     * become item {@code k}'s. Returns the end of the merged ranges.
     */
    int sortAndMerge(int k, int from, int t) {
        Sorting.sortByKey(start, end, from, t);
        int w = from;
        for (int r = from; r < t; r++) {
            if (w > from && start[r] <= end[w - 1]) {
                end[w - 1] = Math.max(end[w - 1], end[r]);
            } else {
                start[w] = start[r];
                end[w++] = end[r];
            }
        }
        this.from[k] = from;
        this.to[k] = w;
        return w;
    }
}
