package dev.berth.bench;

import dev.berth.arith.Checked;
import dev.berth.schedule.Graph;
import dev.berth.schedule.InPlace;
import dev.berth.schedule.Order;
import dev.berth.schedule.OrderSearch;
import dev.berth.schedule.Role;
import dev.berth.schedule.Schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * XLA's three memory schedulers (xla/service/hlo_memory_scheduler.cc, whose DefaultMemoryScheduler
 * runs all three and keeps the lowest), written again from their descriptions for Berth's operator
 * graphs, as baselines. A graph's operator is an HLO instruction; its operands are the writers of
 * the buffers it reads, in the order it reads them (graph inputs are parameters, which schedule
 * nothing); a kept chain's previous operator is a control predecessor; the computation's root is a
 * tuple of the graph outputs (so an operator writing one has the root as a user, and an output is
 * never freed). Buffers' bytes are the graph's reserved bytes.
 *
 * <ul>
 * <li>{@link Kind#LIST}: XLA's ListScheduler. Among the ready operators (every operand and control
 *     predecessor scheduled) it takes the one of highest priority: bytes freed (the buffers it reads
 *     whose last unscheduled use it is) minus bytes it defines, then its number of users; among
 *     equal priorities the entry that entered the ready list last (XLA's multimap takes its last
 *     element). When a buffer is left with one unscheduled use, the ready users of the scheduled
 *     operator's operands get their priority again (and re-enter the list when it changed). XLA
 *     ignores parameters' and constants' buffers, which live for the whole run there; here graph
 *     inputs die at their last reader (Berth's rules), so they count as freed like any other buffer,
 *     and constants and variables are ignored as in XLA.</li>
 * <li>{@link Kind#DFS}: XLA's DFSMemoryScheduler. Over the post order, each operator's
 *     {@code extra_users} (its users less one, plus its operands' values) and {@code total_sizes}
 *     (bytes it defines plus its operands' values), capped at the operators met so far and the bytes
 *     defined so far; then a depth-first post order from the operators nobody uses (in listed order)
 *     and last the root, visiting each operator's operands and control predecessors by decreasing
 *     {@code extra_users}, then decreasing {@code total_sizes}, then by name.</li>
 * <li>{@link Kind#POST_ORDER}: XLA's PostOrderMemoryScheduler, HloComputation's
 *     MakeInstructionPostOrder: for each operator nobody uses, in listed order, then the root, a
 *     depth-first post order visiting control predecessors first, then the operands in their order.</li>
 * </ul>
 */
public final class XlaSchedulers {
    private XlaSchedulers() {
    }

    /** One of XLA's schedulers. */
    public enum Kind {
        LIST("list"), DFS("dfs"), POST_ORDER("post-order");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }
    }

    /** The order {@code kind} schedules {@code g}'s operators in (their names). */
    public static List<String> order(Graph g, Kind kind) {
        Hlo h = new Hlo(g);
        int[] order = switch (kind) {
            case LIST -> h.list();
            case DFS -> h.dfs();
            case POST_ORDER -> h.postOrder();
        };
        List<String> names = new ArrayList<>(order.length);
        for (int o : order) {
            names.add(g.operators().get(o).name());
        }
        return names;
    }

    /**
     * The schedule of {@code g} run in {@code order} (a permutation of its operators that respects
     * its dependences and kept chains) with the in-place pairs {@code level} allows: its peak is the
     * order's peak of live bytes by Berth's rules.
     */
    public static Schedule run(Graph g, List<String> order, InPlace level) {
        Map<String, Graph.Operator> byName = new HashMap<>();
        for (Graph.Operator op : g.operators()) {
            byName.put(op.name(), op);
        }
        List<Graph.Operator> ops = new ArrayList<>(order.size());
        for (String name : order) {
            ops.add(byName.get(name));
        }
        Graph reordered = new Graph(g.name(), g.alignment(), g.buffers(), ops, g.keepOrder());
        return OrderSearch.search(reordered, Order.FILE, level);
    }

    /** The graph as XLA's scheduler sees it: operands, users, control edges, buffer uses and sizes. */
    private static final class Hlo {
        final Graph g;
        final int n;
        final long[] size;
        /** Buffers the scheduler ignores: constants and variables (XLA: constants and parameters). */
        final boolean[] ignored;
        final boolean[] liveOut;
        final int[][] reads;
        final int[][] writes;
        final int[][] operands;
        final int[][] controlPreds;
        final int[][] users;
        final boolean[] rootUses;
        final int[][] readers;
        final int[] rootOperands;

        Hlo(Graph g) {
            this.g = g;
            n = g.operators().size();
            int m = g.buffers().size();
            Map<String, Integer> buffer = new HashMap<>();
            size = new long[m];
            ignored = new boolean[m];
            liveOut = new boolean[m];
            for (int b = 0; b < m; b++) {
                Graph.Buffer buf = g.buffers().get(b);
                buffer.put(buf.name(), b);
                size[b] = g.reservedBytes(b);
                ignored[b] = buf.role() == Role.CONSTANT || buf.role() == Role.VARIABLE;
                liveOut[b] = buf.role() == Role.OUTPUT;
            }
            Map<String, Integer> op = new HashMap<>();
            int[] writer = new int[m];
            Arrays.fill(writer, -1);
            reads = new int[n][];
            writes = new int[n][];
            for (int o = 0; o < n; o++) {
                Graph.Operator x = g.operators().get(o);
                op.put(x.name(), o);
                reads[o] = x.reads().stream().mapToInt(buffer::get).distinct().toArray();
                writes[o] = x.writes().stream().mapToInt(buffer::get).distinct().toArray();
                for (int b : writes[o]) {
                    writer[b] = o;
                }
            }
            List<List<Integer>> readerLists = new ArrayList<>();
            for (int b = 0; b < m; b++) {
                readerLists.add(new ArrayList<>());
            }
            operands = new int[n][];
            List<Set<Integer>> userSets = new ArrayList<>();
            for (int o = 0; o < n; o++) {
                userSets.add(new LinkedHashSet<>());
            }
            for (int o = 0; o < n; o++) {
                List<Integer> operandList = new ArrayList<>();
                for (int b : reads[o]) {
                    readerLists.get(b).add(o);
                    if (writer[b] >= 0) {
                        operandList.add(writer[b]);
                    }
                }
                operands[o] = operandList.stream().mapToInt(Integer::intValue).toArray();
            }
            readers = new int[m][];
            for (int b = 0; b < m; b++) {
                readers[b] = readerLists.get(b).stream().mapToInt(Integer::intValue).toArray();
            }
            // users in listed order: XLA adds a user when the using instruction is built
            for (int o = 0; o < n; o++) {
                for (int p : operands[o]) {
                    userSets.get(p).add(o);
                }
            }
            List<List<Integer>> control = new ArrayList<>();
            for (int o = 0; o < n; o++) {
                control.add(new ArrayList<>());
            }
            boolean[] controlSuccessor = new boolean[n];
            for (List<String> chain : g.keepOrder()) {
                for (int i = 1; i < chain.size(); i++) {
                    control.get(op.get(chain.get(i))).add(op.get(chain.get(i - 1)));
                    controlSuccessor[op.get(chain.get(i - 1))] = true;
                }
            }
            controlPreds = new int[n][];
            users = new int[n][];
            rootUses = new boolean[n];
            List<Integer> root = new ArrayList<>();
            for (int b = 0; b < m; b++) {
                if (liveOut[b] && !root.contains(writer[b])) {
                    root.add(writer[b]);
                }
            }
            rootOperands = root.stream().mapToInt(Integer::intValue).toArray();
            for (int o = 0; o < n; o++) {
                controlPreds[o] = control.get(o).stream().mapToInt(Integer::intValue).toArray();
                users[o] = userSets.get(o).stream().mapToInt(Integer::intValue).toArray();
                rootUses[o] = root.contains(o);
            }
            unused = new ArrayList<>();
            unreachableRoots = new ArrayList<>();
            for (int o = 0; o < n; o++) {
                if (users[o].length == 0 && !rootUses[o]) {
                    unused.add(o);
                    if (!controlSuccessor[o]) {
                        unreachableRoots.add(o);
                    }
                }
            }
        }

        /** Operators nobody uses and whose outputs are not the root's, in listed order (MakeInstructionPostOrder's roots). */
        final List<Integer> unused;
        /** Of those, the ones with no control successor (CollectUnreachableRoots, which the DFS scheduler walks from). */
        final List<Integer> unreachableRoots;

        private int userCount(int o) {
            return users[o].length + (rootUses[o] ? 1 : 0);
        }

        private long defined(int o) {
            long bytes = 0;
            for (int b : writes[o]) {
                if (!ignored[b]) {
                    bytes = Checked.add(bytes, size[b]);
                }
            }
            return bytes;
        }

        // ---- ListScheduler

        int[] list() {
            int[] unscheduledUses = new int[size.length];
            for (int o = 0; o < n; o++) {
                for (int b : reads[o]) {
                    unscheduledUses[b]++;
                }
            }
            for (int b = 0; b < size.length; b++) {
                unscheduledUses[b] += liveOut[b] ? 1 : 0;
            }
            int[][] successors = successors();
            int[] pendingPreds = new int[n];
            for (int[] s : successors) {
                for (int o : s) {
                    pendingPreds[o]++;
                }
            }
            long[] priority = new long[n];
            long[] entered = new long[n];
            boolean[] ready = new boolean[n];
            long clock = 0;
            for (int o = 0; o < n; o++) {
                if (pendingPreds[o] == 0) {
                    ready[o] = true;
                    priority[o] = listPriority(o, unscheduledUses);
                    entered[o] = clock++;
                }
            }
            int[] out = new int[n];
            for (int at = 0; at < n; at++) {
                int best = -1;
                for (int o = 0; o < n; o++) {
                    if (ready[o] && (best < 0 || priority[o] > priority[best]
                            || (priority[o] == priority[best] && (userCount(o) > userCount(best)
                            || (userCount(o) == userCount(best) && entered[o] > entered[best]))))) {
                        best = o;
                    }
                }
                ready[best] = false;
                out[at] = best;
                boolean adjust = false;
                for (int b : reads[best]) {
                    if (--unscheduledUses[b] == 1) {
                        adjust = true;
                    }
                }
                for (int s : successors[best]) {
                    if (--pendingPreds[s] == 0) {
                        ready[s] = true;
                        priority[s] = listPriority(s, unscheduledUses);
                        entered[s] = clock++;
                    }
                }
                if (adjust) {
                    for (int b : reads[best]) {
                        for (int u : readers[b]) {
                            if (ready[u]) {
                                long p = listPriority(u, unscheduledUses);
                                if (p != priority[u]) {
                                    priority[u] = p;
                                    entered[u] = clock++;
                                }
                            }
                        }
                    }
                }
            }
            return out;
        }

        /** Bytes freed after {@code o} runs (buffers it reads that it is the last use of) less bytes it defines. */
        private long listPriority(int o, int[] unscheduledUses) {
            long freed = 0;
            for (int b : reads[o]) {
                if (!ignored[b] && unscheduledUses[b] == 1) {
                    freed = Checked.add(freed, size[b]);
                }
            }
            return Math.subtractExact(freed, defined(o)); // a signed score, not a size
        }

        /** Per operator, its distinct data and control successors. */
        private int[][] successors() {
            List<Set<Integer>> s = new ArrayList<>();
            for (int o = 0; o < n; o++) {
                s.add(new LinkedHashSet<>());
            }
            for (int o = 0; o < n; o++) {
                for (int p : operands[o]) {
                    s.get(p).add(o);
                }
                for (int p : controlPreds[o]) {
                    s.get(p).add(o);
                }
            }
            int[][] out = new int[n][];
            for (int o = 0; o < n; o++) {
                out[o] = s.get(o).stream().mapToInt(Integer::intValue).toArray();
            }
            return out;
        }

        // ---- the post orders

        /**
         * A depth-first post order from each of {@code roots} in turn (-1 is the root tuple), each
         * operator's children (operands and control predecessors) given in visiting order by
         * {@code children}; as XLA's iterative walk: children pushed so that the first is visited first.
         */
        private int[] postOrder(List<Integer> roots, IntFunction<int[]> children) {
            byte[] state = new byte[n]; // 0 new, 1 visiting, 2 visited
            List<Integer> out = new ArrayList<>(n);
            for (int root : roots) {
                Deque<Integer> stack = new ArrayDeque<>();
                int[] top = root < 0 ? children.apply(-1) : new int[]{root};
                for (int i = top.length - 1; i >= 0; i--) {
                    if (state[top[i]] != 2) {
                        stack.push(top[i]);
                    }
                }
                while (!stack.isEmpty()) {
                    int cur = stack.peek();
                    if (state[cur] != 0) {
                        stack.pop();
                        if (state[cur] == 1) {
                            state[cur] = 2;
                            out.add(cur);
                        }
                        continue;
                    }
                    state[cur] = 1;
                    int[] kids = children.apply(cur);
                    for (int i = kids.length - 1; i >= 0; i--) {
                        if (state[kids[i]] == 1) {
                            throw new IllegalStateException("a cycle through " + g.operators().get(kids[i]).name());
                        }
                        if (state[kids[i]] != 2) {
                            stack.push(kids[i]);
                        }
                    }
                }
            }
            if (out.size() != n) {
                throw new IllegalStateException("the post order of " + g.name() + " misses operators");
            }
            return out.stream().mapToInt(Integer::intValue).toArray();
        }

        /** {@code first}, then the root tuple (-1). */
        private static List<Integer> then(List<Integer> first) {
            List<Integer> roots = new ArrayList<>(first);
            roots.add(-1);
            return roots;
        }

        /** MakeInstructionPostOrder: control predecessors first (pushed last), then operands in order. */
        int[] postOrder() {
            return postOrder(then(unused), o -> {
                if (o < 0) {
                    return rootOperands;
                }
                int[] kids = new int[controlPreds[o].length + operands[o].length];
                // the walk visits the array front first: XLA pushes the operands reversed, then the
                // control predecessors, so the last control predecessor is visited first
                for (int i = 0; i < controlPreds[o].length; i++) {
                    kids[i] = controlPreds[o][controlPreds[o].length - 1 - i];
                }
                System.arraycopy(operands[o], 0, kids, controlPreds[o].length, operands[o].length);
                return kids;
            });
        }

        int[] dfs() {
            int[] post = postOrder();
            long[] extraUsers = new long[n];
            long[] totalSizes = new long[n];
            long cumulative = 0;
            long totalHlos = n;
            for (int o : post) {
                extraUsers[o] = userCount(o) == 0 ? 0 : userCount(o) - 1;
                long own = defined(o);
                totalSizes[o] = own;
                cumulative = Checked.add(cumulative, own);
                for (int p : Arrays.stream(operands[o]).distinct().toArray()) {
                    extraUsers[o] = Checked.add(extraUsers[o], extraUsers[p]);
                    totalSizes[o] = Checked.add(totalSizes[o], totalSizes[p]);
                }
                totalSizes[o] = Math.min(totalSizes[o], cumulative);
                extraUsers[o] = Math.min(extraUsers[o], totalHlos);
            }
            Comparator<Integer> visitFirst = Comparator.<Integer>comparingLong(o -> -extraUsers[o])
                    .thenComparingLong(o -> -totalSizes[o])
                    .thenComparing(o -> g.operators().get(o).name());
            return postOrder(then(unreachableRoots), o -> {
                int[] kids = o < 0 ? rootOperands.clone() : concat(operands[o], controlPreds[o]);
                return Arrays.stream(kids).boxed().sorted(visitFirst).mapToInt(Integer::intValue).toArray();
            });
        }

        private static int[] concat(int[] a, int[] b) {
            int[] out = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, out, a.length, b.length);
            return out;
        }
    }
}
