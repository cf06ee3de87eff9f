package dev.berth.schedule;

import dev.berth.arith.Checked;
import dev.berth.failure.Require;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The search over operator orders and in-place pairs together, minimising the peak of live
 * reserved bytes.
 *
 * <p>How: operators that read and write nothing and keep no order ({@linkplain #free free}: a
 * Constant node whose value is a weight) change no live byte; they are set aside and each runs
 * right after the operator listed before it (or, when graph inputs nobody reads are live during
 * the first operator and the order is the search's, one of them runs first and holds those
 * alone). {@linkplain #sources Sources} (nothing to wait for, nothing to free, every output read:
 * a TFLite DEQUANTIZE of weights) run in some optimal order right before their first reader, so
 * the search runs one only when a reader waits for nothing but ready sources. Every order runs the
 * remaining operators that are comparable with all the others (ancestor or descendant of each) at
 * the same point, so the graph splits there into segments searched one by one, each source in
 * the first segment holding one of its readers; the state after a segment is the same whatever
 * order ran inside it. Inside a segment, a depth-first branch and bound over the sets of executed
 * operators (SERENITY's dynamic program over schedules, memoised on the set: a set reached again
 * with no lower prefix peak is not searched again). The state after a set is fixed by the set,
 * and the best pairs at a step depend only on the state, so taking them greedily at each step is
 * exact. A ready operator that leaves no more bytes live than before and whose step costs no
 * more than every completion must reach anyway (the prefix peak, the bytes live now, the bound
 * of an operator still to run, the graph's bound) is the only child: running it first never
 * makes a completion worse (an exchange argument: every step it moves over holds no more, and
 * an input dying later dies no later). Other children are tried by their step's peak (greedy
 * first). A branch is cut when its prefix peak, the bytes live now, or the largest per-operator
 * bound of an operator still to run reaches the incumbent, which starts as the listed order with
 * the level's pairs (sources moved later, which raises no step): the answer is never worse than
 * the file order. A segment stops at the graph's bound: going under it lowers no peak.
 *
 * <p>The bound: for each operator, the bytes every order holds while it runs (what it reads and
 * writes, less the outputs it could write over an input with no consumer after it; every buffer
 * made before it, or a graph input, with a consumer after it; outputs made before it; constants
 * and variables), and the bytes live before the first operator. Work is counted in nodes (one per
 * set visited), per segment; a segment that runs out keeps its incumbent and reports its bracket.
 * No clock: the same graph and options give the same answer.
 */
public final class OrderSearch {
    /** Nodes per segment unless told otherwise. */
    public static final long DEFAULT_NODES = 2_000_000;

    private OrderSearch() {
    }

    /** Searches with {@link #DEFAULT_NODES} per segment. */
    public static Schedule search(Graph g, Order order, InPlace level) {
        return search(g, order, level, DEFAULT_NODES);
    }

    /**
     * The best order (for {@link Order#BEST}; the listed one for {@link Order#FILE}) and pairs
     * at {@code level}, spending at most {@code nodesPerSegment} nodes on each segment.
     */
    public static Schedule search(Graph g, Order order, InPlace level, long nodesPerSegment) {
        Require.nonNull(g, "graph");
        Require.nonNull(order, "order");
        Require.nonNull(level, "inPlace");
        if (nodesPerSegment < 1) {
            throw Require.invalid("nodes", Long.toString(nodesPerSegment),
                    "the search needs at least 1 node per segment, got " + nodesPerSegment);
        }
        int n = g.ops;
        int[] listed = new int[n];
        for (int o = 0; o < n; o++) {
            listed[o] = o;
        }
        long filePeak = Run.peak(g, InPlace.NONE, listed, null);
        long fileLevelPeak = Run.peak(g, level, listed, null);
        long[][] anc = closure(g, true);
        long[][] desc = closure(g, false);
        long[] lb = operatorBounds(g, level, anc, desc);
        boolean[] free = free(g);
        // a free operator runs right after the operator listed before it that is not free (first, if none)
        List<List<Integer>> after = new ArrayList<>();
        for (int o = 0; o <= n; o++) {
            after.add(new ArrayList<>());
        }
        int previous = -1;
        int firstFree = -1;
        for (int o = 0; o < n; o++) {
            if (free[o]) {
                after.get(previous + 1).add(o);
                firstFree = firstFree < 0 ? o : firstFree;
            } else {
                previous = o;
            }
        }
        // graph inputs nobody reads are live during the first operator only: a free one, if the search may
        // choose, holds them alone (no order's first step holds less), and no other operator holds them
        boolean unreadAlone = order == Order.BEST && g.unreadInputs > 0 && firstFree >= 0;
        if (unreadAlone) {
            Integer first = firstFree;
            after.forEach(list -> list.remove(first));
            after.get(0).add(0, first);
        }
        boolean[] source = order == Order.BEST && (g.unreadInputs == 0 || unreadAlone) ? sources(g, free)
                : new boolean[n];
        List<int[]> segments = segments(g, anc, desc, free, source);
        // no order peaks below this: segments need not go under it
        long globalBound = n == 0 ? fileLevelPeak : Checked.add(g.initialLive, g.unreadInputs);
        for (long b : lb) {
            globalBound = Math.max(globalBound, b);
        }

        Run run = new Run(g, level);
        int[] chosen = new int[n];
        int at = 0;
        for (int f : after.get(0)) {
            run.apply(f);
            chosen[at++] = f;
        }
        long nodes = 0;
        int open = 0;
        long bound = n == 0 ? fileLevelPeak : Checked.add(g.initialLive, g.unreadInputs);
        for (int[] seg : segments) {
            long segBound = Math.max(run.live(), run.executed() == 0 ? Checked.add(run.live(), g.unreadInputs) : 0);
            for (int o : seg) {
                segBound = Math.max(segBound, lb[o]);
            }
            int[] best = seg.clone();
            if (order == Order.BEST && seg.length > 1) {
                Segment s = new Segment(g, run, seg, lb, source, nodesPerSegment);
                long fileSeg = s.peakOf(seg);
                long floor = Math.max(segBound, globalBound);
                if (fileSeg > floor) {
                    s.solve(fileSeg, floor);
                    best = s.bestOrder;
                    nodes = Checked.add(nodes, s.nodes);
                    if (s.bestPeak > floor) {
                        if (s.exhausted) {
                            open++;
                        } else {
                            segBound = s.bestPeak; // searched to the end: the incumbent is this segment's optimum
                        }
                    }
                }
            } else if (seg.length == 1) {
                long during = run.peakDuring(seg[0]);
                if (run.executed() == 0 && firstFree >= 0) {
                    during = Checked.subtract(during, g.unreadInputs); // another order runs a free operator first
                }
                segBound = Math.max(segBound, during);
            }
            bound = Math.max(bound, segBound);
            for (int o : best) {
                run.apply(o);
                chosen[at++] = o;
                for (int f : after.get(o + 1)) {
                    run.apply(f);
                    chosen[at++] = f;
                }
            }
        }
        List<Schedule.Pair> pairs = new ArrayList<>();
        long peak = Run.peak(g, level, chosen, pairs);
        if (peak > fileLevelPeak) {
            throw new IllegalStateException(g.name() + ": the search's order peaks at " + peak + ", above the listed order's "
                    + fileLevelPeak);
        }
        if (bound > peak) {
            throw new IllegalStateException(g.name() + ": bound " + bound + " above the chosen order's peak " + peak);
        }
        List<String> names = new ArrayList<>(n);
        for (int o : chosen) {
            names.add(g.operators().get(o).name());
        }
        return new Schedule(names, pairs, filePeak, fileLevelPeak, peak, bound, peak == bound, nodes, segments.size(), open);
    }

    /** Per operator, its ancestors ({@code up}) or descendants as bit sets over operator indices. */
    private static long[][] closure(Graph g, boolean up) {
        int n = g.ops;
        int words = (n + 63) >>> 6;
        long[][] set = new long[n][words];
        for (int i = 0; i < n; i++) {
            int o = up ? i : n - 1 - i; // the listed order is a topological order
            for (int p : up ? g.preds[o] : g.succs[o]) {
                set[o][p >>> 6] |= 1L << p;
                for (int w = 0; w < words; w++) {
                    set[o][w] |= set[p][w];
                }
            }
        }
        return set;
    }

    private static boolean has(long[] set, int i) {
        return (set[i >>> 6] & (1L << i)) != 0;
    }

    private static boolean anyIn(int[] ops, long[] set) {
        for (int c : ops) {
            if (has(set, c)) {
                return true;
            }
        }
        return false;
    }

    /** Per operator, the bytes every order holds while it runs (see the class comment). */
    static long[] operatorBounds(Graph g, InPlace level, long[][] anc, long[][] desc) {
        int n = g.ops;
        int m = g.reserved.length;
        long[] lb = new long[n];
        boolean[] touched = new boolean[m];
        for (int o = 0; o < n; o++) {
            for (int b : g.reads[o]) {
                touched[b] = true;
            }
            for (int b : g.writes[o]) {
                touched[b] = true;
            }
            long bytes = 0;
            for (int b = 0; b < m; b++) {
                boolean live = touched[b] || switch (g.role[b]) {
                    case CONSTANT, VARIABLE -> true;
                    case INPUT -> anyIn(g.consumers[b], desc[o]);
                    case INTERMEDIATE -> has(anc[o], g.producer[b]) && anyIn(g.consumers[b], desc[o]);
                    case OUTPUT -> has(anc[o], g.producer[b]);
                };
                if (live) {
                    bytes = Checked.add(bytes, g.reserved[b]);
                }
            }
            for (int w : g.writes[o]) {
                for (int j = 0; j < g.pairOut[o].length; j++) {
                    if (g.pairOut[o][j] == w && level.allows(g.pairReason[o][j])
                            && !anyIn(g.consumers[g.pairIn[o][j]], desc[o])) {
                        bytes = Checked.subtract(bytes, g.reserved[w]);
                        break;
                    }
                }
            }
            lb[o] = bytes;
            for (int b : g.reads[o]) {
                touched[b] = false;
            }
            for (int b : g.writes[o]) {
                touched[b] = false;
            }
        }
        return lb;
    }

    /**
     * Operators that read and write nothing and keep no order: they change no live byte, so they
     * run anywhere at no cost (a Constant node whose value is a weight) and are left out of the
     * segments; each runs right after the operator listed before it.
     */
    static boolean[] free(Graph g) {
        boolean[] free = new boolean[g.ops];
        for (int o = 0; o < g.ops; o++) {
            free[o] = g.reads[o].length == 0 && g.writes[o].length == 0 && g.preds[o].length == 0 && g.succs[o].length == 0;
        }
        return free;
    }

    /**
     * Sources: operators with nothing to wait for (no data or kept-order predecessor, no kept
     * chain) that read nothing that could die at them (constants and variables at most) and whose
     * every output is read. Moving a source later, up to its first reader, never raises a peak:
     * every step it passes over holds its outputs no longer, and its own step then holds no more
     * than the step of the operator that followed it. So some optimal order runs each source right
     * before its first reader (each source with the other sources that reader waits for), and the
     * search runs a source only when a reader of it waits for nothing but ready sources. Moving
     * one from the first position would change which operator holds the unread graph inputs: the
     * caller asks for sources only when there are none, or a free operator runs first and holds them.
     */
    static boolean[] sources(Graph g, boolean[] free) {
        boolean[] source = new boolean[g.ops];
        boolean[] chained = new boolean[g.ops];
        Map<String, Integer> index = new HashMap<>();
        for (int o = 0; o < g.ops; o++) {
            index.put(g.operators().get(o).name(), o);
        }
        for (List<String> chain : g.keepOrder()) {
            for (String name : chain) {
                chained[index.get(name)] = true;
            }
        }
        for (int o = 0; o < g.ops; o++) {
            boolean s = !free[o] && !chained[o] && g.preds[o].length == 0 && g.writes[o].length > 0;
            for (int b : g.reads[o]) {
                s &= !g.role[b].reusable();
            }
            for (int b : g.writes[o]) {
                s &= g.consumers[b].length > 0;
            }
            source[o] = s;
        }
        return source;
    }

    /**
     * The listed operators that are neither free nor sources cut into segments: each one
     * comparable with every other one of them alone, the runs of listed ones between two such
     * together; then each source joins the first segment that holds one of its readers (where
     * some optimal order runs it), in listed order.
     */
    static List<int[]> segments(Graph g, long[][] anc, long[][] desc, boolean[] free, boolean[] source) {
        int n = g.ops;
        int regular = 0;
        for (int o = 0; o < n; o++) {
            regular += free[o] || source[o] ? 0 : 1;
        }
        long[] regularSet = new long[(n + 63) >>> 6];
        for (int o = 0; o < n; o++) {
            if (!free[o] && !source[o]) {
                regularSet[o >>> 6] |= 1L << o;
            }
        }
        List<List<Integer>> out = new ArrayList<>();
        List<Integer> run = new ArrayList<>();
        int[] segmentOf = new int[n];
        for (int o = 0; o < n; o++) {
            if (free[o] || source[o]) {
                continue;
            }
            int related = 0;
            for (int w = 0; w < anc[o].length; w++) {
                related += Long.bitCount(anc[o][w] & regularSet[w]) + Long.bitCount(desc[o][w] & regularSet[w]);
            }
            if (related == regular - 1) {
                if (!run.isEmpty()) {
                    out.add(new ArrayList<>(run));
                    run.clear();
                }
                segmentOf[o] = out.size();
                out.add(new ArrayList<>(List.of(o)));
            } else {
                segmentOf[o] = out.size();
                run.add(o);
            }
        }
        if (!run.isEmpty()) {
            out.add(new ArrayList<>(run));
        }
        for (int o = 0; o < n; o++) {
            if (source[o]) {
                int first = Integer.MAX_VALUE;
                for (int c : g.succs[o]) {
                    first = Math.min(first, segmentOf[c]);
                }
                out.get(first).add(o);
            }
        }
        List<int[]> segments = new ArrayList<>();
        for (List<Integer> seg : out) {
            segments.add(seg.stream().mapToInt(Integer::intValue).sorted().toArray());
        }
        return segments;
    }

    /** The branch and bound over one segment, from the state {@code run} holds when it starts. */
    private static final class Segment {
        private final Graph g;
        private final boolean[] source;
        private final Run run;
        private final int[] ops;
        private final int[] byBound;
        private final long[] lb;
        private final Map<Integer, Integer> local = new HashMap<>();
        private final long budget;
        private final Map<Key, Long> seen = new HashMap<>();
        private final int[] path;
        private final long[] bits;
        long nodes;
        boolean exhausted;
        long bestPeak;
        int[] bestOrder;
        private long floor;

        Segment(Graph g, Run run, int[] ops, long[] lb, boolean[] source, long budget) {
            this.g = g;
            this.source = source;
            this.run = run;
            this.ops = ops;
            this.lb = lb;
            this.budget = budget;
            for (int i = 0; i < ops.length; i++) {
                local.put(ops[i], i);
            }
            byBound = Arrays.stream(ops).boxed().sorted((a, b) -> Long.compare(lb[b], lb[a])).mapToInt(Integer::intValue)
                    .toArray();
            path = new int[ops.length];
            bits = new long[(ops.length + 63) >>> 6];
        }

        /** The peak of running {@code order} (this segment's operators) from the segment's start state. */
        long peakOf(int[] order) {
            long peak = 0;
            for (int o : order) {
                peak = Math.max(peak, run.peakDuring(o));
                run.apply(o);
            }
            for (int i = order.length - 1; i >= 0; i--) {
                run.undo(order[i]);
            }
            return peak;
        }

        void solve(long incumbent, long floor) {
            this.bestPeak = incumbent;
            this.bestOrder = ops.clone();
            this.floor = floor;
            dive(0, 0);
        }

        /** Largest per-operator bound of an operator of the segment still to run. */
        private long remainingBound() {
            for (int o : byBound) {
                if (!run.done(o)) {
                    return lb[o];
                }
            }
            return 0;
        }

        /** True when a reader of source {@code o} waits for nothing but sources that are ready. */
        private boolean readerWaitsForSources(int o) {
            for (int c : g.succs[o]) {
                boolean waits = true;
                for (int p : g.preds[c]) {
                    waits &= run.done(p) || (source[p] && run.ready(p));
                }
                if (waits) {
                    return true;
                }
            }
            return false;
        }

        /** @return true to stop the search (out of nodes, or the incumbent meets the floor) */
        private boolean dive(int depth, long prefix) {
            if (depth == ops.length) {
                if (prefix < bestPeak) {
                    bestPeak = prefix;
                    bestOrder = path.clone();
                }
                return bestPeak <= floor;
            }
            if (Math.max(prefix, Math.max(run.live(), remainingBound())) >= bestPeak) {
                return false;
            }
            Key key = new Key(bits.clone());
            Long before = seen.get(key);
            if (before != null && before <= prefix) {
                return false;
            }
            if (nodes >= budget) {
                exhausted = true;
                return true;
            }
            nodes++;
            seen.put(key, prefix);
            int[] ready = new int[ops.length];
            long[] step = new long[ops.length];
            int k = 0;
            long threshold = Math.max(Math.max(prefix, floor), Math.max(run.live(), remainingBound()));
            for (int o : ops) {
                if (run.ready(o) && (!source[o] || readerWaitsForSources(o))) {
                    long s = run.peakDuring(o);
                    if (s <= threshold && run.shrinks(o)) {
                        // running o now costs nothing any completion avoids: it is the only child
                        ready[0] = o;
                        step[0] = s;
                        k = 1;
                        break;
                    }
                    if (Math.max(prefix, s) < bestPeak) {
                        ready[k] = o;
                        step[k++] = s;
                    }
                }
            }
            Integer[] idx = new Integer[k];
            for (int i = 0; i < k; i++) {
                idx[i] = i;
            }
            long[] stepOf = step;
            int[] readyOf = ready;
            Arrays.sort(idx, (a, b) -> stepOf[a] != stepOf[b] ? Long.compare(stepOf[a], stepOf[b])
                    : Integer.compare(readyOf[a], readyOf[b]));
            for (Integer i : idx) {
                int o = ready[i];
                if (Math.max(prefix, step[i]) >= bestPeak) {
                    continue; // the incumbent improved meanwhile
                }
                int li = local.get(o);
                run.apply(o);
                bits[li >>> 6] |= 1L << li;
                path[depth] = o;
                boolean stop = dive(depth + 1, Math.max(prefix, step[i]));
                bits[li >>> 6] &= ~(1L << li);
                run.undo(o);
                if (stop) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A set of executed operators of a segment, as map key. */
    private record Key(long[] bits) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(bits, k.bits);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bits);
        }
    }
}
