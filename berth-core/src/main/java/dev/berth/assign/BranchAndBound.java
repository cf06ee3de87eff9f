package dev.berth.assign;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The exact search for small workloads: every assignment, buffers decided in the placement
 * order ({@link Packing#append}, so each try is one reservation, undone by the packing's
 * checkpoints), the cheapest options first. A branch is cut when its cost so far plus the bound
 * of the rest ({@link Bounds#rest}) is no less than the best known. Work is counted in nodes;
 * when the limit is reached the search stops and says it is incomplete.
 */
final class BranchAndBound {
    private final Model m;
    private final long nodeLimit;
    private final Packing p;
    private final int[] choice;
    private final long[] minRest;
    private long best;
    private int[] bestChoice;
    private Map<Integer, Map<String, Long>> bestOffsets;
    private long nodes;
    private boolean stopped;

    /**
     * What the search found: the best assignment (the incumbent if nothing beat it, null when
     * there was none and nothing fits) and whether the search completed.
     */
    record Result(int[] choice, long cost, Map<Integer, Map<String, Long>> offsets, boolean complete, long nodes,
                  boolean improved) {
    }

    BranchAndBound(Model m, long nodeLimit, int[] incumbent, long incumbentCost) {
        this.m = m;
        this.nodeLimit = nodeLimit;
        this.p = new Packing(m);
        this.choice = new int[m.entries.length];
        this.best = incumbentCost;
        this.bestChoice = incumbent == null ? null : incumbent.clone();
        int n = m.entries.length;
        minRest = new long[n + 1];
        for (int k = n - 1; k >= 0; k--) {
            minRest[k] = Model.add(minRest[k + 1], m.entries[k].minCost());
        }
    }

    Result run() {
        boolean improved = false;
        if (p.fixedFit()) {
            long before = best;
            dfs(0, 0);
            improved = best < before;
        }
        return new Result(bestChoice, best, bestOffsets, !stopped, nodes, improved);
    }

    private void dfs(int k, long cost) {
        if (stopped) {
            return;
        }
        if (++nodes > nodeLimit) {
            stopped = true;
            return;
        }
        if (k == m.entries.length) {
            if (cost < best) {
                best = cost;
                bestChoice = choice.clone();
                bestOffsets = new LinkedHashMap<>();
                for (int s = 0; s < m.limited.size(); s++) {
                    bestOffsets.put(s, p.offsets(s));
                }
            }
            return;
        }
        Entry e = m.entries[k];
        for (int o : e.options()) {
            long c = Model.add(cost, e.cost()[o]);
            if (Model.add(c, minRest[k + 1]) >= best) {
                break; // options go cheapest first
            }
            Packing.Mark mark = p.mark();
            if (e.limited()[o] >= 0 && !p.append(k, o)) {
                continue;
            }
            choice[k] = o;
            if (Model.add(c, Bounds.rest(m, k + 1, p)) < best) {
                dfs(k + 1, c);
            }
            p.rollback(mark);
            if (stopped) {
                return;
            }
        }
    }
}
