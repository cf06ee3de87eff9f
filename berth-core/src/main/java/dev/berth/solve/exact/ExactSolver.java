package dev.berth.solve.exact;

import dev.berth.arith.Checked;
import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.Solver;
import dev.berth.solve.SpaceProblem;

/**
 * A complete search for a placement within {@link SpaceProblem#limit()}.
 *
 * <p>Canonical solutions: in a packing where no buffer can drop lower ("gravity-stable"),
 * placing the buffers in order of offset, each at the lowest aligned offset free among the
 * ones already placed, reproduces it exactly. So a depth-first search that only ever places
 * the next buffer at its lowest feasible offset, never below the previous buffer's offset
 * (ties in index order), visits every canonical solution: if it finds none, none exists.
 */
public final class ExactSolver implements Solver {

    @Override
    public String name() {
        return "exact";
    }

    @Override
    public Outcome solve(SpaceProblem p, Budget budget) {
        Search s = new Search(p, budget);
        for (int i = 0; i < p.size(); i++) {
            if (p.isFixed(i)) {
                if (Checked.saturatingAdd(p.fixedOffset(i), p.reserved(i)) > p.limit()) {
                    return new Outcome.Infeasible("fixed region " + p.name(i) + " ends past the limit " + p.limit());
                }
                s.offset[i] = p.fixedOffset(i);
                s.placed[i] = true;
            }
        }
        if (s.dfs(0, -1)) {
            long h = 0;
            for (int i = 0; i < p.size(); i++) {
                h = Math.max(h, s.offset[i] + p.reserved(i));
            }
            return new Outcome.Solved(s.offset.clone(), h);
        }
        if (s.timedOut) {
            return new Outcome.Unknown("time limit reached after " + s.nodes + " search nodes");
        }
        return new Outcome.Infeasible("complete search of " + s.nodes + " nodes found no placement within " + p.limit());
    }

    private static final class Search {
        final SpaceProblem p;
        final Budget budget;
        final long[] offset;
        final boolean[] placed;
        long nodes;
        boolean timedOut;

        Search(SpaceProblem p, Budget budget) {
            this.p = p;
            this.budget = budget;
            this.offset = new long[p.size()];
            this.placed = new boolean[p.size()];
        }

        /** Lowest aligned offset at or above {@code floor} where item i fits among the placed items. */
        long lowest(int i, long floor) {
            long cand = Checked.saturatingAlignUp(floor, p.alignment(i));
            long size = p.reserved(i);
            if (size == 0) {
                return cand;
            }
            boolean moved = true;
            while (moved) {
                moved = false;
                for (int j = 0; j < p.size(); j++) {
                    if (placed[j] && p.reserved(j) > 0 && p.overlapInTime(i, j)) {
                        long e = offset[j] + p.reserved(j);
                        if (offset[j] < Checked.saturatingAdd(cand, size) && cand < e) {
                            cand = Checked.saturatingAlignUp(e, p.alignment(i));
                            moved = true;
                        }
                    }
                }
            }
            return cand;
        }

        boolean dfs(long floor, int lastIndex) {
            if ((++nodes & 1023) == 0 && budget.exhausted()) {
                timedOut = true;
            }
            if (timedOut) {
                return false;
            }
            int n = p.size();
            long[] at = new long[n];
            boolean any = false;
            for (int i = 0; i < n; i++) {
                if (!placed[i]) {
                    any = true;
                    at[i] = lowest(i, floor);
                    if (at[i] > p.limit() || p.reserved(i) > p.limit() - at[i]) {
                        return false;
                    }
                }
            }
            if (!any) {
                return true;
            }
            for (int i = 0; i < n; i++) {
                if (placed[i] || (at[i] == floor && i < lastIndex)) {
                    continue;
                }
                placed[i] = true;
                offset[i] = at[i];
                if (dfs(at[i], i)) {
                    return true;
                }
                placed[i] = false;
                if (timedOut) {
                    return false;
                }
            }
            return false;
        }
    }
}
