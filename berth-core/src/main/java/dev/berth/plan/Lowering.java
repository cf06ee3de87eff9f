package dev.berth.plan;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.schedule.Graph;
import dev.berth.schedule.Schedule;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.BufferUse;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Operator;
import dev.berth.workload.Operators;
import dev.berth.workload.Shared;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Between a workload and the operator graph a search chooses an order and pairs for
 * ({@code dev.berth.schedule}): the graph of a workload with listed operators ({@link #graph}),
 * and a chosen {@link Schedule} turned back into a workload with steps ({@link #lower}), which
 * the planner places like any other, each shared pair at one offset.
 */
public final class Lowering {
    private Lowering() {
    }

    /**
     * The operator graph of a workload with listed operators ({@link Operators.Listed}): its
     * buffers in workload order, each of the bytes it reserves in its space (its size rounded up
     * to its effective alignment, §3; past 2^63-1 is {@code arithmetic-overflow} naming it), and
     * the declared pairs on their writers. A workload without listed operators is {@code invalid-input}.
     */
    public static Graph graph(Workload w) {
        Require.nonNull(w, "workload");
        if (!(w.operators() instanceof Operators.Listed listed)) {
            throw BerthException.invalid("operators", "workload '" + w.name() + "' lists no operators (contract §5.3): "
                    + "its steps are its buffers' own, and there is no order to choose");
        }
        long[] reserved = new long[w.buffers().size()];
        for (int i = 0; i < reserved.length; i++) {
            BufferSpec b = w.buffers().get(i);
            reserved[i] = Planner.reservedSize(b.space(), b.name(), b.size(), b.alignment());
        }
        return listed.graph(w.name(), reserved);
    }

    /**
     * {@code w} in the order and with the pairs of {@code s}, a schedule of {@code g}: operator
     * {@code i} of the chosen order is step {@code i}, each buffer of {@code g} (every one a buffer
     * of {@code w} of the same name) gets the steps the contract gives it in that order (§5.3:
     * from its writer, inputs from step 0, to its last reader, outputs to the last step), the other
     * buffers and the fixed regions keep theirs, and the pairs are shared ({@link Operators.Ordered}).
     * The graph may be a workload's ({@link #graph}) or a model's, whose operator {@code i} was
     * step {@code i} of {@code w}. A graph buffer that {@code w} does not have, or a schedule whose
     * order is not an order of {@code g}'s operators, is {@code invalid-input}.
     */
    public static Workload lower(Workload w, Graph g, Schedule s) {
        Require.nonNull(w, "workload");
        Require.nonNull(g, "graph");
        Require.nonNull(s, "schedule");
        Set<String> names = new HashSet<>();
        for (BufferSpec b : w.buffers()) {
            names.add(b.name());
        }
        List<BufferUse> uses = new ArrayList<>(g.buffers().size());
        for (Graph.Buffer b : g.buffers()) {
            if (!names.contains(b.name())) {
                throw BerthException.invalid("graph.buffers", b.name(), "graph '" + g.name() + "': buffer '" + b.name()
                        + "' is no buffer of workload '" + w.name() + "'");
            }
            uses.add(new BufferUse(b.name(), b.role()));
        }
        Map<String, Graph.Operator> byName = new HashMap<>();
        for (Graph.Operator op : g.operators()) {
            byName.put(op.name(), op);
        }
        List<Operator> order = new ArrayList<>(s.order().size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < s.order().size(); i++) {
            Graph.Operator op = byName.get(s.order().get(i));
            if (op == null || !seen.add(op.name())) {
                throw Require.invalid("schedule.order[" + i + "]", s.order().get(i), "'"
                        + s.order().get(i) + "' is " + (op == null ? "no operator" : "listed twice in the order")
                        + " of graph '" + g.name() + "'");
            }
            order.add(new Operator(op.name(), op.reads(), op.writes()));
        }
        if (order.size() != g.operators().size()) {
            throw Require.invalid("schedule.order", order.size() + " operators, but graph '"
                    + g.name() + "' has " + g.operators().size());
        }
        Map<String, Lifetime> steps = Operators.lifetimes(order, uses);
        List<BufferSpec> buffers = new ArrayList<>(w.buffers().size());
        for (BufferSpec b : w.buffers()) {
            Lifetime live = steps.get(b.name());
            buffers.add(live == null ? b
                    : new BufferSpec(b.name(), b.size(), b.candidates(), b.accesses(), b.alignment(), live, b.tile()));
        }
        List<Shared> shared = new ArrayList<>(s.pairs().size());
        for (Schedule.Pair p : s.pairs()) {
            shared.add(new Shared(p.output(), p.input()));
        }
        return new Workload(w.name(), buffers, w.fixed(), new Operators.Ordered(order, shared));
    }
}
