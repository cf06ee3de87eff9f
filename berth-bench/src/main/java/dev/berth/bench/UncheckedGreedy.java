package dev.berth.bench;

import dev.berth.solve.SpaceProblem;
import dev.berth.solve.heuristic.HeuristicSolver;
import dev.berth.solve.heuristic.OccupancyTree;
import dev.berth.solve.heuristic.PlacingSchedule;

/**
 * BENCHMARK ONLY. A copy of {@link HeuristicSolver#greedyBySize()} with plain {@code +} and
 * {@code %} where the real one uses {@link dev.berth.arith.Checked}: the baseline that measures
 * what checked arithmetic costs. It lives in the benchmark module (it uses the solver's own
 * {@link OccupancyTree}, public in a package core does not export, so that nothing but the arithmetic differs) and is never
 * used to plan.
 */
public final class UncheckedGreedy {
    private UncheckedGreedy() {
    }

    public static long[] solve(SpaceProblem p) {
        int n = p.size();
        int[] order = HeuristicSolver.order(p);
        OccupancyTree index = new OccupancyTree(p, order);
        long[] size = new long[n];
        long[] align = new long[n];
        long[] fixedAt = new long[n];
        for (int k = 0; k < n; k++) {
            int i = order[k];
            size[k] = p.reserved(i);
            align[k] = p.alignment(i);
            fixedAt[k] = p.fixedOffset(i);
        }
        long[] placed = new long[n];
        long height = 0;
        int[] schedule = n > PlacingSchedule.SWEEP_FROM_CHUNKS * (long) PlacingSchedule.CHUNK
                ? PlacingSchedule.of(index.steps(), PlacingSchedule.CHUNK) : null;
        for (int t = 0; t < n; t++) {
            int k = schedule == null ? t : schedule[t];
            long at;
            if (fixedAt[k] >= 0) {
                at = fixedAt[k];
            } else {
                int m = index.gather(k);
                at = firstGap(index.starts(), index.ends(), m, size[k], align[k]);
            }
            placed[k] = at;
            height = Math.max(height, at + size[k]);
            index.add(k, at, at + size[k]);
        }
        long[] offset = new long[n];
        for (int k = 0; k < n; k++) {
            offset[order[k]] = placed[k];
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
            if (align == 1) {
                cand = v;
            } else {
                long rem = v % align;
                cand = rem == 0 ? v : v + (align - rem);
            }
        }
        return cand;
    }
}
