package dev.berth.assign;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * A second upper bound on what one space with a capacity can save, strong where buffers are
 * large against the space (where the flow relaxation {@link SavingsBound} lets a fraction of
 * each in): the Lagrangian relaxation of "a buffer is in the space at all its steps or at none".
 * The steps are cut into segments (between consecutive first and last+1 steps); each segment
 * chooses, whole, the buffers it holds within its room (a 0-1 knapsack), buffer {@code i} being
 * worth {@code mu[i][k]} in segment {@code k}; buffer {@code i} itself is worth its savings less
 * the sum of its {@code mu}. For any {@code mu} the sum of the best choices bounds what any
 * assignment saves (a real one makes the same choice in every segment of a buffer, where the
 * terms cancel). {@code mu} starts with each buffer's savings spread over its steps and moves by
 * subgradient steps ({@link #ROUNDS}) toward a lower bound; the least one seen is returned.
 * A segment whose knapsack takes more than {@link #NODES_PER_SEGMENT} search nodes is bounded by
 * its fractional knapsack instead.
 *
 * <p>The values are fractions, summed in floating point; the result is raised by a relative
 * 10^-9 and one unit per buffer before it is rounded up, far more than the rounding of the sums,
 * so that it stays an upper bound.
 */
final class StepKnapsackBound {
    static final int NODES_PER_SEGMENT = 20_000;
    static final int ROUNDS = 2000;
    /**
     * The work over all rounds, the knapsacks' search nodes plus the segment members each round
     * visits: past it no further round starts (small workloads run every round, large ones as
     * many as this pays for).
     */
    static final long NODES = 3_000_000;

    private StepKnapsackBound() {
    }

    /**
     * As {@link SavingsBound#savings}, with the same arguments and {@code achieved}, what a known
     * assignment saves (it sets the subgradient's step); {@code Long.MAX_VALUE} when the bound
     * passes 2^63-1.
     */
    static long savings(long limit, int[] ofirst, int[] olast, long[] oreserved,
                        int[] first, int[] last, long[] bytes, long[] weight, long achieved) {
        int n = first.length;
        TreeSet<Long> cuts = new TreeSet<>();
        double[] saves = new double[n];
        for (int i = 0; i < n; i++) {
            if (bytes[i] > 0 && weight[i] > 0) {
                cuts.add((long) first[i]);
                cuts.add((long) last[i] + 1);
                saves[i] = (double) bytes[i] * (double) weight[i];
            }
        }
        if (cuts.isEmpty()) {
            return 0;
        }
        long[] b = cuts.stream().mapToLong(Long::longValue).toArray();
        int segs = b.length - 1;
        // per segment: its room and the buffers live there that fit it; mu per (segment, member)
        long[] room = new long[segs];
        int[][] members = new int[segs][];
        double[][] mu = new double[segs][];
        // members by a sweep over the segments: each buffer from its first segment to its last
        List<List<Integer>> live = new ArrayList<>();
        for (int k = 0; k < segs; k++) {
            live.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            if (saves[i] > 0) {
                int from = Arrays.binarySearch(b, first[i]);
                int to = Arrays.binarySearch(b, (long) last[i] + 1);
                for (int k = from; k < to; k++) {
                    live.get(k).add(i);
                }
            }
        }
        for (int k = 0; k < segs; k++) {
            room[k] = Math.max(0, limit - SavingsBound.occupied(ofirst, olast, oreserved, b[k], b[k + 1] - 1).bytes());
            members[k] = live.get(k).stream().mapToInt(Integer::intValue).toArray();
            mu[k] = new double[members[k].length];
            for (int j = 0; j < members[k].length; j++) {
                int i = members[k][j];
                mu[k][j] = saves[i] * (b[k + 1] - b[k]) / ((double) last[i] - first[i] + 1);
            }
        }
        double best = Double.MAX_VALUE;
        double theta = 1;
        int stale = 0;
        double[] rest = new double[n];
        boolean[][] in = new boolean[segs][];
        long[] nodes = new long[1];
        long visits = 0;
        for (int k = 0; k < segs; k++) {
            visits += members[k].length;
        }
        int round = 0;
        for (; round < ROUNDS && nodes[0] + round * visits < NODES; round++) {
            Arrays.fill(rest, 0);
            for (int i = 0; i < n; i++) {
                rest[i] = saves[i];
            }
            double value = 0;
            for (int k = 0; k < segs; k++) {
                in[k] = new boolean[members[k].length];
                value += knapsack(members[k], bytes, mu[k], room[k], in[k], nodes);
                for (int j = 0; j < members[k].length; j++) {
                    rest[members[k][j]] -= mu[k][j];
                }
            }
            boolean[] whole = new boolean[n];
            for (int i = 0; i < n; i++) {
                if (rest[i] > 0) {
                    value += rest[i];
                    whole[i] = true;
                }
            }
            if (value < best - 1e-9 * Math.abs(best)) {
                best = value;
                stale = 0;
            } else if (++stale >= 5) {
                theta /= 2;
                stale = 0;
            }
            double norm = 0;
            for (int k = 0; k < segs; k++) {
                for (int j = 0; j < members[k].length; j++) {
                    double g = (in[k][j] ? 1 : 0) - (whole[members[k][j]] ? 1 : 0);
                    norm += g * g;
                }
            }
            double gap = value - achieved;
            if (norm == 0 || gap <= 0 || theta < 1e-4) {
                break;
            }
            double step = theta * gap / norm;
            for (int k = 0; k < segs; k++) {
                for (int j = 0; j < members[k].length; j++) {
                    double g = (in[k][j] ? 1 : 0) - (whole[members[k][j]] ? 1 : 0);
                    mu[k][j] -= step * g;
                }
            }
        }
        double raised = best * (1 + 1e-9) + n;
        return raised >= 9.2e18 ? Long.MAX_VALUE : (long) Math.ceil(raised);
    }

    /**
     * The best value of whole members within {@code room} bytes (members of value at most 0 left
     * out), marking the chosen ones in {@code in}; the fractional bound, with the fractional
     * item marked, when the search runs out of nodes.
     */
    private static double knapsack(int[] members, long[] bytes, double[] value, long room, boolean[] in,
                                   long[] nodes) {
        List<Integer> c = new ArrayList<>();
        for (int j = 0; j < members.length; j++) {
            if (value[j] > 0 && bytes[members[j]] <= room) {
                c.add(j);
            }
        }
        if (c.isEmpty()) {
            return 0;
        }
        Integer[] order = c.toArray(new Integer[0]);
        Arrays.sort(order, (x, y) -> Double.compare(value[y] / bytes[members[y]], value[x] / bytes[members[x]]));
        int m = order.length;
        long[] w = new long[m];
        double[] v = new double[m];
        for (int j = 0; j < m; j++) {
            w[j] = bytes[members[order[j]]];
            v[j] = value[order[j]];
        }
        Search s = new Search(w, v);
        s.dfs(0, room, 0, new boolean[m]);
        nodes[0] += s.nodes;
        if (s.nodes > NODES_PER_SEGMENT) {
            long left = room;
            double sum = 0;
            for (int j = 0; j < m && left > 0; j++) {
                in[order[j]] = true;
                sum += w[j] <= left ? v[j] : v[j] * ((double) left / w[j]);
                left -= Math.min(left, w[j]);
            }
            return sum;
        }
        for (int j = 0; j < m; j++) {
            in[order[j]] = s.chosen[j];
        }
        return s.best;
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
        boolean[] chosen;
        long nodes;

        Search(long[] w, double[] v) {
            this.w = w;
            this.v = v;
            this.chosen = new boolean[w.length];
        }

        void dfs(int j, long room, double value, boolean[] now) {
            if (++nodes > NODES_PER_SEGMENT) {
                return;
            }
            if (value > best) {
                best = value;
                chosen = now.clone();
            }
            if (j == w.length || value + fractional(w, v, j, room) <= best) {
                return;
            }
            if (w[j] <= room) {
                now[j] = true;
                dfs(j + 1, room - w[j], value + v[j], now);
                now[j] = false;
            }
            dfs(j + 1, room, value, now);
        }
    }
}
