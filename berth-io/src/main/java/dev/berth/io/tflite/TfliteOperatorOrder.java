package dev.berth.io.tflite;

import dev.berth.failure.Require;
import dev.berth.schedule.Schedule;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An order of subgraph 0's operators for a rewritten model ({@link TflmOfflinePlan#write(java.nio.ByteBuffer,
 * String, TfliteModel, int[], int[])}): per position, the index in the file of the operator that
 * runs there. TFLM runs a subgraph's operators in the order of its {@code operators} vector and
 * takes every tensor's lifetime from that order, so an order is accepted only when it is a
 * permutation that keeps, for every tensor, the file's relative order of each operator writing
 * it (an output or an intermediate) and every other operator reading or writing it, and the
 * relative order of the operators that keep theirs ({@link TfliteSchedule}: custom, resource and
 * control-flow operators, and those touching a variable tensor). Anything else is
 * {@code invalid-input} naming {@code order} or the position at fault.
 */
public final class TfliteOperatorOrder {
    private TfliteOperatorOrder() {
    }

    /**
     * The order a schedule of {@code TfliteSchedule.graph(m)} chose, as operator indices of
     * subgraph 0 (the graph names operator {@code j} {@code "j:OPNAME"}). A name that is no
     * operator of the model, or an order that is not a permutation, is {@code invalid-input}
     * naming {@code schedule.order[i]}.
     */
    public static int[] of(ImportedTflite m, Schedule s) {
        Require.nonNull(m, "model");
        Require.nonNull(s, "schedule");
        List<TfliteModel.Operator> ops = m.model().subgraphs().get(0).operators();
        Map<String, Integer> byName = new HashMap<>();
        for (TfliteModel.Operator op : ops) {
            byName.put(op.index() + ":" + op.opName(), op.index());
        }
        if (s.order().size() != ops.size()) {
            throw Require.invalid("schedule.order", s.order().size() + " operators, but "
                    + m.name() + "'s subgraph 0 has " + ops.size());
        }
        int[] order = new int[ops.size()];
        boolean[] seen = new boolean[ops.size()];
        for (int i = 0; i < order.length; i++) {
            Integer o = byName.get(s.order().get(i));
            if (o == null || seen[o]) {
                throw Require.invalid("schedule.order[" + i + "]", s.order().get(i), "'"
                        + s.order().get(i) + "' is " + (o == null ? "no operator of " + m.name() + "'s subgraph 0"
                        : "listed twice"));
            }
            seen[o] = true;
            order[i] = o;
        }
        return order;
    }

    /** The file's own order of {@code m}'s subgraph 0: 0, 1, ..., n-1. */
    public static int[] file(TfliteModel m) {
        int[] order = new int[m.subgraphs().get(0).operators().size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        return order;
    }

    /** Whether {@code order} is the file's own. */
    static boolean isFile(int[] order) {
        for (int i = 0; i < order.length; i++) {
            if (order[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** Checks {@code order} against {@code m} as the class comment says; returns each operator's position. */
    static int[] check(TfliteModel m, int[] order) {
        Require.nonNull(order, "order");
        TfliteModel.Subgraph main = m.subgraphs().get(0);
        List<TfliteModel.Operator> ops = main.operators();
        int n = ops.size();
        if (order.length != n) {
            throw Require.invalid("order", Integer.toString(order.length), order.length
                    + " operators, but subgraph 0 has " + n + "; a reordered file runs each of them once");
        }
        int[] position = new int[n];
        Arrays.fill(position, -1);
        for (int i = 0; i < n; i++) {
            int o = order[i];
            if (o < 0 || o >= n || position[o] >= 0) {
                throw Require.invalid("order[" + i + "]", Integer.toString(o), o + " is "
                        + (o < 0 || o >= n ? "no operator of subgraph 0 (0.." + (n - 1) + ")"
                        : "listed twice (at " + position[o] + " too)") + "; an order lists each operator once");
            }
            position[o] = i;
        }
        // per tensor, the operators touching it in file order, and whether each writes it
        int tensors = main.tensors().size();
        List<List<int[]>> touch = new ArrayList<>();
        for (int t = 0; t < tensors; t++) {
            touch.add(new ArrayList<>());
        }
        for (TfliteModel.Operator op : ops) {
            for (int[] list : new int[][] {op.inputs(), op.outputs(), op.intermediates()}) {
                boolean writes = list != op.inputs();
                for (int t : list) {
                    if (t >= 0 && t < tensors) {
                        touch.get(t).add(new int[] {op.index(), writes ? 1 : 0});
                    }
                }
            }
        }
        for (int t = 0; t < tensors; t++) {
            List<int[]> by = touch.get(t);
            for (int[] w : by) {
                if (w[1] == 0) {
                    continue;
                }
                for (int[] u : by) {
                    if (u[0] != w[0] && (u[0] < w[0]) != (position[u[0]] < position[w[0]])) {
                        int early = Math.min(u[0], w[0]);
                        int late = Math.max(u[0], w[0]);
                        throw Require.invalid("order[" + position[late] + "]", Integer.toString(late), "operator "
                                + late + " (" + ops.get(late).opName() + ") runs before operator " + early + " ("
                                + ops.get(early).opName() + "), which the file runs first, and "
                                + "one of them writes tensor " + t + " (" + main.tensors().get(t).label()
                                + ") the other "
                                + "reads or writes; a reordered file keeps the order of such operators");
                    }
                }
            }
        }
        int before = -1;
        for (TfliteModel.Operator op : ops) {
            if (TfliteSchedule.keepsOrder(op, main)) {
                if (before >= 0 && position[op.index()] < position[before]) {
                    throw Require.invalid("order[" + position[op.index()] + "]", Integer.toString(op.index()),
                            "operator " + op.index() + " (" + op.opName() + ") runs "
                            + "before operator " + before + " (" + ops.get(before).opName() + "); custom, resource and "
                            + "control-flow operators and those touching a variable tensor keep the file's order");
                }
                before = op.index();
            }
        }
        return position;
    }
}
