package dev.berth.plan;

import dev.berth.arith.Checked;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.solve.SpaceProblem;
import dev.berth.workload.Operator;
import dev.berth.workload.Operators;
import dev.berth.workload.Shared;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The planner's part of shared pairs (contract §5.3, a workload in a chosen order,
 * {@link Operators.Ordered}): each chain of pairs ({@code b} over {@code a}, {@code c} over
 * {@code b}) is solved as one item, of its largest reserved bytes rounded up to the lcm of its
 * members' alignments, live over the union of their steps; every member then gets that item's
 * offset and is admitted there like any other item. A workload without pairs is solved as it is.
 */
final class SharedOffsets {
    private final Map<String, String> inputOf;
    private final Optional<List<Operator>> order;

    private SharedOffsets(Map<String, String> inputOf, Optional<List<Operator>> order) {
        this.inputOf = inputOf;
        this.order = order;
    }

    static SharedOffsets of(Workload w) {
        if (w.operators() instanceof Operators.Ordered o) {
            Map<String, String> in = new HashMap<>();
            for (Shared s : o.shared()) {
                in.put(s.output(), s.input());
            }
            return new SharedOffsets(in, Optional.of(o.order()));
        }
        if (w.operators() instanceof Operators.Listed l) {
            // planned as listed: the listed order, no pair
            return new SharedOffsets(Map.of(), Optional.of(l.operators()));
        }
        return new SharedOffsets(Map.of(), Optional.empty());
    }

    /** The order the plan runs its operators in, when the workload has operators (chosen, or as listed). */
    Optional<List<Operator>> order() {
        return order;
    }

    /**
     * {@code solver}'s outcome on {@code p} with each chain of pairs in it as one item, the offsets
     * given back per item of {@code p}. Where a chain's members do not all reserve the merged bytes,
     * the plan keeps bytes no member needs at some steps: what the search proved is then proved for
     * such plans only, so the outcome claims no bound beyond the peak of live bytes (open: shared).
     */
    SpaceOutcome solve(SpaceProblem p, Function<SpaceProblem, SpaceOutcome> solver) {
        if (inputOf.isEmpty()) {
            return solver.apply(p);
        }
        Optional<int[]> chains = heads(p);
        if (chains.isEmpty()) {
            return solver.apply(p);
        }
        int[] head = chains.get();
        Merged m = merge(p, head);
        SpaceOutcome o = solver.apply(m.problem());
        long[] offsets = new long[p.size()];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = o.offsets()[m.at()[head[i]]];
        }
        if (m.exact()) {
            return new SpaceOutcome(offsets, o.solver(), o.height(), o.exact(), o.lowerBound(), o.provedLower(),
                    o.open(), o.timeLimited());
        }
        return new SpaceOutcome(offsets, o.solver(), o.height(), o.exact(), 0, 0,
                Optional.of(Optimality.Open.SHARED), o.timeLimited());
    }

    /**
     * Per item of {@code p}, the first input of its chain of pairs (itself when it is in none);
     * empty when no item of {@code p} is chained to another of {@code p}.
     */
    private Optional<int[]> heads(SpaceProblem p) {
        int n = p.size();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            if (inputOf.containsKey(p.name(i)) || inputOf.containsValue(p.name(i))) {
                index.put(p.name(i), i);
            }
        }
        int[] head = new int[n];
        boolean chained = false;
        for (int i = 0; i < n; i++) {
            // follow the pairs to the chain's first input (the workload keeps them one per output and input)
            String at = p.name(i);
            while (inputOf.containsKey(at) && index.containsKey(inputOf.get(at))) {
                at = inputOf.get(at);
            }
            head[i] = index.getOrDefault(at, i);
            chained |= head[i] != i;
        }
        return chained ? Optional.of(head) : Optional.empty();
    }

    /**
     * The problem with each chain one item (the largest of its members' bytes, aligned to all their
     * alignments, over the union of their lifetimes), named and placed as its head; {@code at} gives a
     * head's index in it; {@code exact} when every member reserves just the merged bytes.
     */
    private record Merged(SpaceProblem problem, int[] at, boolean exact) {
    }

    private static Merged merge(SpaceProblem p, int[] head) {
        int n = p.size();
        long[] bytes = new long[n];
        long[] align = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        for (int i = 0; i < n; i++) {
            int h = head[i];
            if (h == i) {
                bytes[i] = p.reserved(i);
                align[i] = p.alignment(i);
                first[i] = p.first(i);
                last[i] = p.last(i);
            }
        }
        boolean exact = true;
        for (int i = 0; i < n; i++) {
            int h = head[i];
            if (h != i) {
                exact &= p.reserved(i) == p.reserved(h);
                bytes[h] = Math.max(bytes[h], p.reserved(i));
                align[h] = Checked.lcm(align[h], p.alignment(i));
                first[h] = Math.min(first[h], p.first(i));
                last[h] = Math.max(last[h], p.last(i));
            }
        }
        int[] at = new int[n];
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (head[i] == i) {
                at[i] = kept.size();
                kept.add(i);
                long whole = Checked.alignUp(bytes[i], align[i]);
                exact &= whole == p.reserved(i);
                bytes[i] = whole;
            }
        }
        int k = kept.size();
        String[] names = new String[k];
        long[] qBytes = new long[k];
        long[] qAlign = new long[k];
        int[] qFirst = new int[k];
        int[] qLast = new int[k];
        long[] qFixed = new long[k];
        for (int j = 0; j < k; j++) {
            int i = kept.get(j);
            names[j] = p.name(i);
            qBytes[j] = bytes[i];
            qAlign[j] = align[i];
            qFirst[j] = first[i];
            qLast[j] = last[i];
            qFixed[j] = p.isFixed(i) ? p.fixedOffset(i) : -1;
        }
        return new Merged(new SpaceProblem(p.space(), names, qBytes, qAlign, qFirst, qLast, qFixed, p.limit()), at,
                exact);
    }

    /** One space's artifact entries, each pair's output naming its input in {@code sharesWith}. */
    List<PlannedBuffer> mark(List<PlannedBuffer> in) {
        if (inputOf.isEmpty()) {
            return in;
        }
        List<PlannedBuffer> out = new ArrayList<>(in.size());
        for (PlannedBuffer b : in) {
            String input = inputOf.get(b.name());
            out.add(input == null ? b : b.sharing(input));
        }
        return out;
    }
}
