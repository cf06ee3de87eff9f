package dev.berth.assign;

import dev.berth.sweep.LiveBytes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.TreeSet;

/**
 * An upper bound on what one space with a capacity can save: the per-step relaxation. Buffer
 * {@code i} would save {@code weight[i]} per requested byte there and may be put there
 * fractionally ({@code y[i]} of its {@code bytes[i]} bytes); at every step the bytes of the
 * buffers live then may not pass the step's room, the space's limit less what already holds it
 * (the {@code occupied} items). Every real assignment is such a fractional one (a buffer reserves
 * at least its requested bytes), so the most this saves bounds what any assignment saves.
 *
 * <p>The relaxation is a minimum-cost flow (the interval structure makes it one): the steps
 * between consecutive start or end boundaries are nodes on a line; the free room of each such
 * segment flows along the line, and a buffer is an edge from its first segment past its last
 * one, carrying the bytes it takes from the room of every segment it spans, at cost
 * {@code -weight} per byte. Where the room grows, flow enters; where it shrinks, flow leaves;
 * all of it must get through, so at every segment the buffers' bytes plus the line's flow equal
 * the room. Solved exactly by successive shortest paths with potentials, in whole bytes.
 */
final class SavingsBound {
    /**
     * Augmenting paths before the flow stops: the shortest paths' costs only rise, so what the
     * rest of the flow could still save is at most its amount times what the last path saved per
     * byte, and the bound adds that.
     */
    static final int PATHS = 1_000;

    private SavingsBound() {
    }

    /** The bound, or {@code Long.MAX_VALUE} when a sum would pass 2^63-1 (then the caller has no bound from it). */
    static long savings(long limit, int[] ofirst, int[] olast, long[] oreserved,
                        int[] first, int[] last, long[] bytes, long[] weight) {
        int n = first.length;
        TreeSet<Long> cuts = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            if (bytes[i] > 0 && weight[i] > 0) {
                cuts.add((long) first[i]);
                cuts.add((long) last[i] + 1);
            }
        }
        if (cuts.isEmpty()) {
            return 0;
        }
        long[] b = cuts.stream().mapToLong(Long::longValue).toArray();
        int segs = b.length - 1;
        long[] room = new long[segs];
        for (int k = 0; k < segs; k++) {
            room[k] = Math.max(0, limit - occupied(ofirst, olast, oreserved, b[k], b[k + 1] - 1).bytes());
        }
        Graph g = new Graph(segs + 3);
        int source = segs + 1;
        int sink = segs + 2;
        for (int k = 0; k < segs; k++) {
            g.edge(k, k + 1, room[k], 0);
        }
        long prev = 0;
        long supply = 0;
        for (int k = 0; k <= segs; k++) {
            long r = k < segs ? room[k] : 0;
            if (r > prev) {
                g.edge(source, k, r - prev, 0);
                supply = Math.addExact(supply, r - prev);
            } else if (r < prev) {
                g.edge(k, sink, prev - r, 0);
            }
            prev = r;
        }
        for (int i = 0; i < n; i++) {
            if (bytes[i] <= 0 || weight[i] <= 0) {
                continue;
            }
            int from = Arrays.binarySearch(b, first[i]);
            int to = Arrays.binarySearch(b, (long) last[i] + 1);
            long cap = bytes[i];
            for (int k = from; k < to; k++) {
                cap = Math.min(cap, room[k]);
            }
            if (cap > 0) {
                g.edge(from, to, cap, -weight[i]);
            }
        }
        try {
            return g.maxSavings(source, sink, supply);
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** The most bytes the items hold at one step of {@code [from, to]} and the first step with them, by the one live-bytes sweep. */
    static LiveBytes.Peak occupied(int[] ofirst, int[] olast, long[] oreserved, long from, long to) {
        List<Integer> in = new ArrayList<>();
        for (int i = 0; i < ofirst.length; i++) {
            if (ofirst[i] <= to && olast[i] >= from && oreserved[i] > 0) {
                in.add(i);
            }
        }
        if (in.isEmpty()) {
            return LiveBytes.Peak.NONE;
        }
        int m = in.size();
        int[] f = new int[m];
        int[] l = new int[m];
        long[] r = new long[m];
        for (int j = 0; j < m; j++) {
            int i = in.get(j);
            f[j] = (int) Math.max(ofirst[i], from);
            l[j] = (int) Math.min(olast[i], to);
            r[j] = oreserved[i];
        }
        return LiveBytes.peak(f, l, r);
    }

    /** A flow network whose edges go forward (from a lower node to a higher one, the source first, the sink last). */
    private static final class Graph {
        private final int nodes;
        private final List<long[]> edges = new ArrayList<>(); // {from, to, capacity, cost}, reverse edge at index ^ 1
        private final List<List<Integer>> out = new ArrayList<>();

        Graph(int nodes) {
            this.nodes = nodes;
            for (int v = 0; v < nodes; v++) {
                out.add(new ArrayList<>());
            }
        }

        void edge(int from, int to, long capacity, long cost) {
            out.get(from).add(edges.size());
            edges.add(new long[]{from, to, capacity, cost});
            out.get(to).add(edges.size());
            edges.add(new long[]{to, from, 0, -cost});
        }

        /** Minus the least cost of a maximum flow of {@code supply} from {@code s} to {@code t}, or more (see {@link #PATHS}). */
        long maxSavings(int s, int t, long supply) {
            long[] pot = initialPotentials(s);
            long cost = 0;
            long pushed = 0;
            int paths = 0;
            long[] dist = new long[nodes];
            int[] via = new int[nodes];
            while (true) {
                Arrays.fill(dist, Long.MAX_VALUE);
                Arrays.fill(via, -1);
                dist[s] = 0;
                PriorityQueue<long[]> q = new PriorityQueue<>((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0])
                        : Long.compare(x[1], y[1]));
                q.add(new long[]{0, s});
                while (!q.isEmpty()) {
                    long[] top = q.poll();
                    int u = (int) top[1];
                    if (top[0] > dist[u]) {
                        continue;
                    }
                    for (int e : out.get(u)) {
                        long[] ed = edges.get(e);
                        if (ed[2] <= 0) {
                            continue;
                        }
                        int v = (int) ed[1];
                        long nd = Math.addExact(dist[u], Math.addExact(ed[3], Math.subtractExact(pot[u], pot[v])));
                        if (nd < dist[v]) {
                            dist[v] = nd;
                            via[v] = e;
                            q.add(new long[]{nd, v});
                        }
                    }
                }
                if (dist[t] == Long.MAX_VALUE) {
                    return Math.negateExact(cost);
                }
                if (++paths > PATHS) {
                    // the path's real cost per byte: its reduced cost plus the potentials' difference
                    long unitCost = Math.addExact(dist[t], Math.subtractExact(pot[t], pot[s]));
                    long rest = Math.multiplyExact(supply - pushed, Math.max(0, -unitCost));
                    return Math.addExact(Math.negateExact(cost), rest);
                }
                for (int v = 0; v < nodes; v++) {
                    if (dist[v] != Long.MAX_VALUE) {
                        pot[v] = Math.addExact(pot[v], dist[v]);
                    }
                }
                long push = Long.MAX_VALUE;
                for (int v = t; v != s; v = (int) edges.get(via[v])[0]) {
                    push = Math.min(push, edges.get(via[v])[2]);
                }
                long unit = 0;
                for (int v = t; v != s; v = (int) edges.get(via[v])[0]) {
                    int e = via[v];
                    edges.get(e)[2] -= push;
                    edges.get(e ^ 1)[2] += push;
                    unit = Math.addExact(unit, edges.get(e)[3]);
                }
                cost = Math.addExact(cost, Math.multiplyExact(push, unit));
                pushed += push;
            }
        }

        /** Shortest distances from {@code s} over forward edges with capacity, in node order (the source is before all but its own index). */
        private long[] initialPotentials(int s) {
            long[] d = new long[nodes];
            Arrays.fill(d, Long.MAX_VALUE);
            d[s] = 0;
            // topological order: the source, then the line's nodes 0.., then the sink
            int[] order = new int[nodes];
            order[0] = s;
            int k = 1;
            for (int v = 0; v < nodes; v++) {
                if (v != s) {
                    order[k++] = v;
                }
            }
            for (int u : order) {
                if (d[u] == Long.MAX_VALUE) {
                    continue;
                }
                for (int e : out.get(u)) {
                    long[] ed = edges.get(e);
                    if (ed[2] > 0) {
                        int v = (int) ed[1];
                        d[v] = Math.min(d[v], Math.addExact(d[u], ed[3]));
                    }
                }
            }
            for (int v = 0; v < nodes; v++) {
                if (d[v] == Long.MAX_VALUE) {
                    d[v] = 0;
                }
            }
            return d;
        }
    }
}
