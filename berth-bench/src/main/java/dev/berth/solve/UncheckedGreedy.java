package dev.berth.solve;

/**
 * BENCHMARK ONLY. A copy of {@link HeuristicSolver#greedyBySize()} with plain {@code +} and
 * {@code %} where the real one uses {@link dev.berth.arith.Checked}: the baseline that measures
 * what checked arithmetic costs. It lives in the benchmark module (in this package only to share
 * {@link TimeIndex} and {@link Sorting}, so that nothing but the arithmetic differs) and is never
 * used to plan.
 */
public final class UncheckedGreedy {
    private UncheckedGreedy() {
    }

    public static long[] solve(SpaceProblem p) {
        int n = p.size();
        long[] offset = new long[n];
        long[] end = new long[n];
        TimeIndex index = new TimeIndex(p);
        for (int i = 0; i < n; i++) {
            if (p.isFixed(i)) {
                offset[i] = p.fixedOffset(i);
                end[i] = offset[i] + p.reserved(i);
                index.add(i, offset[i], end[i]);
            }
        }
        int[] order = HeuristicSolver.order(p);
        long[] starts = new long[n];
        long[] ends = new long[n];
        for (int i : order) {
            int m = index.overlapping(i, starts, ends);
            Sorting.sortByKey(starts, ends, m);
            long at = firstGap(starts, ends, m, p.reserved(i), p.alignment(i));
            offset[i] = at;
            end[i] = at + p.reserved(i);
            index.add(i, offset[i], end[i]);
        }
        return offset;
    }

    private static long firstGap(long[] starts, long[] ends, int m, long size, long align) {
        if (size == 0) {
            return 0;
        }
        long cand = 0;
        for (int q = 0; q < m; q++) {
            if (ends[q] <= cand) {
                continue;
            }
            if (starts[q] >= cand + size) {
                return cand;
            }
            long v = Math.max(cand, ends[q]);
            long rem = v % align;
            cand = rem == 0 ? v : v + (align - rem);
        }
        return cand;
    }
}
