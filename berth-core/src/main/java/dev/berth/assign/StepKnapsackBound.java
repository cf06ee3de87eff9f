package dev.berth.assign;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * A second upper bound on what one space with a capacity can save, strong where buffers are
 * large against the space (where the flow relaxation {@link SavingsBound} lets a fraction of
 * each in): spread each buffer's savings evenly over the steps it is live, and let every step
 * choose, whole, the buffers it holds, at most its room of bytes; the sum over the steps of each
 * step's best choice (a 0-1 knapsack) bounds what any assignment saves, since a real one makes
 * the same choice at every step of a buffer. A step whose knapsack takes more than
 * {@link #NODES_PER_STEP} search nodes is bounded by its fractional knapsack instead.
 *
 * <p>The savings per step are fractions, summed in floating point; the result is raised by a
 * relative 10^-9 and one unit per buffer before it is rounded up, far more than the rounding of
 * the sums, so that it stays an upper bound.
 */
final class StepKnapsackBound {
    static final int NODES_PER_STEP = 20_000;

    private StepKnapsackBound() {
    }

    /** As {@link SavingsBound#savings}, with the same arguments; {@code Long.MAX_VALUE} when it passes 2^63-1. */
    static long savings(long limit, int[] ofirst, int[] olast, long[] oreserved,
                        int[] first, int[] last, long[] bytes, long[] weight) {
        int n = first.length;
        TreeSet<Long> cuts = new TreeSet<>();
        double[] perStep = new double[n];
        for (int i = 0; i < n; i++) {
            if (bytes[i] > 0 && weight[i] > 0) {
                cuts.add((long) first[i]);
                cuts.add((long) last[i] + 1);
                perStep[i] = (double) bytes[i] * (double) weight[i] / ((double) last[i] - first[i] + 1);
            }
        }
        if (cuts.isEmpty()) {
            return 0;
        }
        long[] b = cuts.stream().mapToLong(Long::longValue).toArray();
        double total = 0;
        for (int k = 0; k + 1 < b.length; k++) {
            long room = Math.max(0, limit - SavingsBound.occupied(ofirst, olast, oreserved, b[k], b[k + 1] - 1).bytes());
            List<Integer> live = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (perStep[i] > 0 && first[i] <= b[k] && b[k] <= last[i] && bytes[i] <= room) {
                    live.add(i);
                }
            }
            if (!live.isEmpty()) {
                total += (double) (b[k + 1] - b[k]) * knapsack(live, bytes, perStep, room);
            }
        }
        double raised = total * (1 + 1e-9) + n;
        return raised >= 9.2e18 ? Long.MAX_VALUE : (long) Math.ceil(raised);
    }

    /** The best value of whole items within {@code room} bytes, or the fractional bound when the search runs out of nodes. */
    private static double knapsack(List<Integer> items, long[] bytes, double[] value, long room) {
        Integer[] order = items.toArray(new Integer[0]);
        Arrays.sort(order, (x, y) -> Double.compare(value[y] / bytes[y], value[x] / bytes[x]));
        int m = order.length;
        long[] w = new long[m];
        double[] v = new double[m];
        for (int j = 0; j < m; j++) {
            w[j] = bytes[order[j]];
            v[j] = value[order[j]];
        }
        double fractional = fractional(w, v, 0, room);
        Search s = new Search(w, v);
        s.dfs(0, room, 0);
        return s.nodes > NODES_PER_STEP ? fractional : s.best;
    }

    /** The fractional knapsack of items {@code from..} (by density, highest first) in {@code room}. */
    private static double fractional(long[] w, double[] v, int from, long room) {
        double sum = 0;
        for (int j = from; j < w.length && room > 0; j++) {
            if (w[j] <= room) {
                sum += v[j];
                room -= w[j];
            } else {
                sum += v[j] * ((double) room / w[j]);
                room = 0;
            }
        }
        return sum;
    }

    private static final class Search {
        final long[] w;
        final double[] v;
        double best;
        long nodes;

        Search(long[] w, double[] v) {
            this.w = w;
            this.v = v;
        }

        void dfs(int j, long room, double value) {
            if (++nodes > NODES_PER_STEP) {
                return;
            }
            best = Math.max(best, value);
            if (j == w.length || value + fractional(w, v, j, room) <= best) {
                return;
            }
            if (w[j] <= room) {
                dfs(j + 1, room - w[j], value + v[j]);
            }
            dfs(j + 1, room, value);
        }
    }
}
