package dev.berth.schedule;

import dev.berth.arith.Checked;
import dev.berth.failure.Require;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An operator graph whose order and in-place choices a search may pick: buffers with their sizes
 * and {@link Role}s, operators listed in a runnable order (the file's order) with the buffers each
 * reads and writes, chains of operators that must keep their listed relative order, and per written
 * buffer the inputs of the same operator it may be written over. Immutable; checked when built.
 *
 * <h2>The rules (the proposed contract text)</h2>
 * <ul>
 * <li><b>Reserved bytes.</b> A buffer of {@code bytes} reserves {@code bytes} rounded up to a
 *     multiple of the graph's {@code alignment} (through {@link Checked#alignUp}); every live-byte
 *     figure is a sum of reserved bytes.</li>
 * <li><b>Where a buffer is live</b>, in a chosen order of the operators: a graph input from the
 *     first operator to its last consumer (one nobody reads, during the first operator only); an
 *     intermediate from its producing operator to its last consumer (one nobody reads, during its
 *     producer only); a graph output from its producer to the last operator; constants and
 *     variables during every operator. Bytes live while an operator runs are those of every buffer
 *     live at its position, less the outputs it writes over an input.</li>
 * <li><b>An output may be written over an input</b> ({@code sharesWith}) only when all of these
 *     hold: the pair is declared on the operator that writes the output and reads the input; the
 *     input is a graph input or an intermediate (graph outputs, constants and variables are never
 *     written over); the output's reserved bytes fit in the input's; the input <i>dies there</i>:
 *     in the chosen order, the producing operator is the input's last consumer (with several
 *     consumers, every other consumer runs before it; an operator reading the input twice counts
 *     once); each input hosts at most one output and each output takes at most one input. The
 *     pair has equal offsets: the output's bytes begin where the input's begin, so during the
 *     producing operator only the input's reserved bytes count for both, and afterwards the
 *     output's own.</li>
 * <li><b>Orders</b>: every operator after the writers of what it reads, and the operators of each
 *     {@code keepOrder} chain in the chain's order (operators that touch variables, resources,
 *     custom or control-flow operators).</li>
 * </ul>
 *
 * <p>Bad input is {@code invalid-input} naming the path: an empty or duplicate name, a negative
 * size, an alignment below 1, an unknown buffer or operator, a buffer written twice, an input,
 * constant or variable written, an intermediate or output nobody writes, an operator reading what
 * it writes, a cycle, a list that is not a runnable order, a kept chain against the listed order or
 * naming an operator twice, and a declared pair that breaks a rule that does not depend on the order.
 */
public final class Graph {

    /** One buffer: its name, its size in bytes and its role. */
    public record Buffer(String name, long bytes, Role role) {
        public Buffer {
            Require.nonNull(name, "name");
            Require.nonNull(role, "role");
        }
    }

    /** One declared pair: {@code output} may be written over {@code input}, for {@code reason}. */
    public record Overwrite(String output, String input, Reuse reason) {
        public Overwrite {
            Require.nonNull(output, "output");
            Require.nonNull(input, "input");
            Require.nonNull(reason, "reason");
        }
    }

    /** One operator: the buffers it reads and writes and the pairs declared on it. */
    public record Operator(String name, List<String> reads, List<String> writes, List<Overwrite> overwrites) {
        public Operator {
            Require.nonNull(name, "name");
            reads = Require.elements(reads, "reads");
            writes = Require.elements(writes, "writes");
            overwrites = Require.elements(overwrites, "overwrites");
        }

        public Operator(String name, List<String> reads, List<String> writes) {
            this(name, reads, writes, List.of());
        }
    }

    private final String name;
    private final long alignment;
    private final List<Buffer> buffers;
    private final List<Operator> operators;
    private final List<List<String>> keepOrder;

    // the compiled form the search runs on (indices into buffers and operators)
    final int ops;
    final long[] reserved;
    final Role[] role;
    final int[] producer;
    final int[][] reads;
    final int[][] writes;
    final int[][] consumers;
    final int[][] preds;
    final int[][] succs;
    /** per operator, its declared pairs: output buffer, input buffer, reason. */
    final int[][] pairOut;
    final int[][] pairIn;
    final Reuse[][] pairReason;
    /** Bytes live before the first operator: graph inputs someone reads, constants, variables. */
    final long initialLive;
    /** Graph inputs nobody reads: live during the first operator only. */
    final long unreadInputs;

    public Graph(String name, long alignment, List<Buffer> buffers, List<Operator> operators, List<List<String>> keepOrder) {
        this.name = Require.name(name, "name");
        if (alignment < 1) {
            throw Require.invalid("alignment", Long.toString(alignment), "must be at least 1, got " + alignment);
        }
        this.alignment = alignment;
        this.buffers = Require.elements(buffers, "buffers");
        this.operators = Require.elements(operators, "operators");
        List<List<String>> chains = new ArrayList<>();
        for (int i = 0; i < Require.nonNull(keepOrder, "keepOrder").size(); i++) {
            chains.add(Require.elements(keepOrder.get(i), "keepOrder[" + i + "]"));
        }
        this.keepOrder = List.copyOf(chains);

        int m = this.buffers.size();
        ops = this.operators.size();
        Map<String, Integer> bufferIndex = new HashMap<>();
        reserved = new long[m];
        role = new Role[m];
        for (int b = 0; b < m; b++) {
            Buffer buf = this.buffers.get(b);
            String at = "buffers[" + b + "]";
            Require.name(buf.name(), at + ".name");
            unique(bufferIndex, buf.name(), b, "buffers", at);
            reserved[b] = Checked.alignUp(Require.nonNegative(buf.bytes(), at + ".bytes"), alignment);
            role[b] = buf.role();
        }
        Map<String, Integer> opIndex = new HashMap<>();
        producer = new int[m];
        Arrays.fill(producer, -1);
        reads = new int[ops][];
        writes = new int[ops][];
        for (int o = 0; o < ops; o++) {
            Operator op = this.operators.get(o);
            String at = "operators[" + o + "]";
            Require.name(op.name(), at + ".name");
            unique(opIndex, op.name(), o, "operators", at);
            writes[o] = distinct(op.writes(), bufferIndex, at + ".writes");
            for (int j = 0; j < op.writes().size(); j++) {
                int b = bufferIndex.get(op.writes().get(j));
                String path = at + ".writes[" + j + "]";
                if (!role[b].produced()) {
                    throw Require.invalid(path, op.writes().get(j), "'" + op.writes().get(j) + "' is a graph "
                            + role[b].id() + ", which no operator writes");
                }
                if (producer[b] >= 0 && producer[b] != o) {
                    throw Require.invalid(path, op.writes().get(j), "'" + op.writes().get(j)
                            + "' is written by operators[" + producer[b] + "] '"
                            + this.operators.get(producer[b]).name() + "' already; a buffer has one writer");
                }
                producer[b] = o;
            }
            reads[o] = distinct(op.reads(), bufferIndex, at + ".reads");
            for (int j = 0; j < op.reads().size(); j++) {
                int b = bufferIndex.get(op.reads().get(j));
                if (producer[b] == o) {
                    String path = at + ".reads[" + j + "]";
                    throw Require.invalid(path, op.reads().get(j), "'" + op.name() + "' reads '"
                            + op.reads().get(j) + "', which it writes itself: a cycle");
                }
            }
        }
        for (int b = 0; b < m; b++) {
            if (role[b].produced() && producer[b] < 0) {
                throw Require.invalid("buffers[" + b + "]", this.buffers.get(b).name(), "graph "
                        + role[b].id() + " '" + this.buffers.get(b).name() + "' is written by no operator");
            }
        }
        // dependences: data, then the kept chains
        List<Set<Integer>> pre = new ArrayList<>();
        for (int o = 0; o < ops; o++) {
            Set<Integer> p = new LinkedHashSet<>();
            for (int b : reads[o]) {
                if (producer[b] >= 0) {
                    p.add(producer[b]);
                }
            }
            pre.add(p);
        }
        requireRunnable(pre);
        Set<String> chained = new HashSet<>();
        for (int c = 0; c < this.keepOrder.size(); c++) {
            List<String> chain = this.keepOrder.get(c);
            int before = -1;
            for (int j = 0; j < chain.size(); j++) {
                String path = "keepOrder[" + c + "][" + j + "]";
                Integer o = opIndex.get(chain.get(j));
                if (o == null) {
                    throw Require.invalid(path, chain.get(j), "no operator is named '" + chain.get(j) + "'");
                }
                if (!chained.add(chain.get(j))) {
                    throw Require.invalid(path, chain.get(j), "'" + chain.get(j)
                            + "' is in a kept chain already; an operator keeps its order in one chain");
                }
                if (o < before) {
                    throw Require.invalid(path, chain.get(j), "'" + chain.get(j) + "' is listed before '"
                            + chain.get(j - 1) + "'; a kept chain keeps the listed order");
                }
                if (before >= 0) {
                    pre.get(o).add(before);
                }
                before = o;
            }
        }
        preds = new int[ops][];
        List<List<Integer>> suc = new ArrayList<>();
        for (int o = 0; o < ops; o++) {
            suc.add(new ArrayList<>());
        }
        for (int o = 0; o < ops; o++) {
            preds[o] = pre.get(o).stream().mapToInt(Integer::intValue).sorted().toArray();
            for (int p : preds[o]) {
                suc.get(p).add(o);
            }
        }
        succs = new int[ops][];
        for (int o = 0; o < ops; o++) {
            succs[o] = suc.get(o).stream().mapToInt(Integer::intValue).toArray();
        }
        List<List<Integer>> cons = new ArrayList<>();
        for (int b = 0; b < m; b++) {
            cons.add(new ArrayList<>());
        }
        for (int o = 0; o < ops; o++) {
            for (int b : reads[o]) {
                cons.get(b).add(o);
            }
        }
        consumers = new int[m][];
        long initial = 0;
        long unread = 0;
        for (int b = 0; b < m; b++) {
            consumers[b] = cons.get(b).stream().mapToInt(Integer::intValue).toArray();
            if (role[b] == Role.CONSTANT || role[b] == Role.VARIABLE || (role[b] == Role.INPUT && consumers[b].length > 0)) {
                initial = Checked.add(initial, reserved[b]);
            } else if (role[b] == Role.INPUT) {
                unread = Checked.add(unread, reserved[b]);
            }
        }
        initialLive = initial;
        unreadInputs = unread;
        // declared pairs
        pairOut = new int[ops][];
        pairIn = new int[ops][];
        pairReason = new Reuse[ops][];
        for (int o = 0; o < ops; o++) {
            Operator op = this.operators.get(o);
            int k = op.overwrites().size();
            pairOut[o] = new int[k];
            pairIn[o] = new int[k];
            pairReason[o] = new Reuse[k];
            Set<List<Integer>> seen = new HashSet<>();
            for (int j = 0; j < k; j++) {
                Overwrite w = op.overwrites().get(j);
                String at = "operators[" + o + "].overwrites[" + j + "]";
                Integer out = bufferIndex.get(w.output());
                if (out == null || producer[out] != o) {
                    throw Require.invalid(at + ".output", w.output(), "'" + op.name()
                            + "' does not write '" + w.output() + "'; a pair is declared on the output's writer");
                }
                Integer in = bufferIndex.get(w.input());
                if (in == null || Arrays.stream(reads[o]).noneMatch(b -> b == in)) {
                    throw Require.invalid(at + ".input", w.input(), "'" + op.name() + "' does not read '" + w.input()
                            + "'; an output is written over an input of its own writer");
                }
                if (!role[in].reusable()) {
                    throw Require.invalid(at + ".input", w.input(), "'" + w.input() + "' is a graph "
                            + role[in].id() + "; graph outputs, constants and variables are never written over");
                }
                if (reserved[out] > reserved[in]) {
                    throw Require.invalid(at + ".output", w.output(), "'" + w.output() + "' reserves "
                            + reserved[out] + " bytes, more than the " + reserved[in] + " of '" + w.input()
                            + "'; an output written over an input fits in it");
                }
                if (!seen.add(List.of(out, in))) {
                    throw Require.invalid(at, w.output(), "the pair '" + w.output() + "' over '" + w.input()
                            + "' is declared twice");
                }
                pairOut[o][j] = out;
                pairIn[o][j] = in;
                pairReason[o][j] = w.reason();
            }
        }
    }

    /** The distinct buffer indices of {@code names}; an unknown name is invalid at its path. */
    /** Records {@code name} at {@code i} of {@code list}; a name met before is invalid-input at {@code at}.name. */
    private static void unique(Map<String, Integer> index, String name, int i, String list, String at) {
        Integer first = index.putIfAbsent(name, i);
        if (first != null) {
            throw Require.invalid(at + ".name", name, "'" + name + "' names " + list + "[" + first
                    + "] already");
        }
    }

    private static int[] distinct(List<String> names, Map<String, Integer> index, String path) {
        Set<Integer> out = new LinkedHashSet<>();
        for (int j = 0; j < names.size(); j++) {
            Integer b = index.get(names.get(j));
            if (b == null) {
                throw Require.invalid(path + "[" + j + "]", names.get(j), "no buffer is named '"
                        + names.get(j) + "'");
            }
            out.add(b);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The listed order runs: every operator after the writers of what it reads; else a cycle, or a late writer. */
    private void requireRunnable(List<Set<Integer>> pre) {
        int[] state = new int[ops]; // 0 new, 1 on the path, 2 done
        for (int o = 0; o < ops; o++) {
            List<Integer> cycle = cycleFrom(o, pre, state, new ArrayList<>());
            if (cycle != null) {
                StringBuilder s = new StringBuilder();
                for (int c : cycle) {
                    s.append(s.length() == 0 ? "" : " -> ").append('\'').append(operators.get(c).name()).append('\'');
                }
                int first = cycle.get(0);
                throw Require.invalid("operators[" + first + "]", operators.get(first).name(),
                        "the operators form a cycle (each reads what the previous writes): " + s);
            }
        }
        for (int o = 0; o < ops; o++) {
            Operator op = operators.get(o);
            for (int j = 0; j < op.reads().size(); j++) {
                String read = op.reads().get(j);
                int w = -1;
                for (int p : pre.get(o)) {
                    if (p > o && operators.get(p).writes().contains(read)) {
                        w = p;
                    }
                }
                if (w >= 0) {
                    String path = "operators[" + o + "].reads[" + j + "]";
                    throw Require.invalid(path, read, "'" + read + "' is written by operators[" + w + "] '"
                            + operators.get(w).name() + "', listed later; list the operators in an order that runs");
                }
            }
        }
    }

    /** A cycle through {@code o} found by depth-first search, as operators in reading order, or null. */
    private static List<Integer> cycleFrom(int o, List<Set<Integer>> pre, int[] state, List<Integer> path) {
        if (state[o] == 2) {
            return null;
        }
        if (state[o] == 1) {
            List<Integer> c = new ArrayList<>(path.subList(path.indexOf(o), path.size()));
            Collections.reverse(c);
            c.add(c.get(0));
            return c;
        }
        state[o] = 1;
        path.add(o);
        for (int p : pre.get(o)) {
            List<Integer> c = cycleFrom(p, pre, state, path);
            if (c != null) {
                return c;
            }
        }
        path.remove(path.size() - 1);
        state[o] = 2;
        return null;
    }

    public String name() {
        return name;
    }

    public long alignment() {
        return alignment;
    }

    public List<Buffer> buffers() {
        return buffers;
    }

    public List<Operator> operators() {
        return operators;
    }

    public List<List<String>> keepOrder() {
        return keepOrder;
    }

    /** A buffer's reserved bytes: its size rounded up to the alignment. */
    public long reservedBytes(int buffer) {
        return reserved[buffer];
    }
}
