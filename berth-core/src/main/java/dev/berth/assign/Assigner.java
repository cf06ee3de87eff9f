package dev.berth.assign;

import dev.berth.admit.Admission;
import dev.berth.alloc.Allocation;
import dev.berth.artifact.Assignment;
import dev.berth.sweep.LiveBytes;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The assignment phase's entry: one space per buffer with candidates, the cheapest the work
 * finds. The greedy orders run first ({@link Greedy}, and the order that tries first what the
 * whole-buffer relaxation chose, {@link LiveSetBound}); where the best of them costs more than
 * the bound, that choice is placed by the skyline solver ({@link WholePlacement}); a workload with
 * at most {@link Work#searchUpTo} such buffers is then searched exactly ({@link BranchAndBound}),
 * starting from the best choice so far. The cost is bounded below by {@link Bounds#root}; it is proved
 * the least when it equals that bound, or when the search completed (for the placement rule of
 * {@link Packing}). The chosen placement of each space with a capacity comes with the result, so
 * the planner can always place what was chosen.
 */
public final class Assigner {
    /**
     * The workload with one space per buffer, what was chosen and proved, and the placement that
     * fitted each space with a capacity (by space, then buffer name: every reservation the
     * space holds, fixed regions included), empty when nothing fitted by the placement rule.
     */
    public record Result(Workload workload, Assignment assignment, Map<String, Map<String, Long>> placements) {
    }

    private Assigner() {
    }

    /** The assignment of a checked workload ({@code WorkloadCheck}) on its target. */
    public static Result assign(Target target, Workload workload, Work work) {
        Model m = new Model(target, workload);
        Map<String, int[]> orders = Greedy.orders(m);
        List<Optional<Bounds.Whole>> whole = Bounds.whole(m);
        if (whole.stream().anyMatch(Optional::isPresent)) {
            // without a whole-buffer choice the order would be density's again
            orders.put("whole-buffers", wholeFirst(m, orders.get("density"), whole));
        }
        Optional<Greedy.Result> best = bestOrder(m, orders, work);
        // the repair works on the best order's packing, its buffers in the density order
        int[] choice = best.map(Greedy.Result::choice).orElse(null);
        long lb = Bounds.root(m, choice == null ? m.cheapest() : choice, whole);
        long cost = best.map(Greedy.Result::cost).orElse(Long.MAX_VALUE);
        Map<Integer, Map<String, Long>> offsets = packingOffsets(m, best);
        // the relaxation's own choice, placed by the skyline where the placement rule could not hold it
        Optional<WholePlacement.Placed> placed = m.limited.size() == 1 && cost > lb && whole.get(0).isPresent()
                ? WholePlacement.place(m, whole.get(0).get()) : Optional.empty();
        if (placed.isPresent() && placed.get().cost() < cost) {
            choice = placed.get().choice();
            cost = placed.get().cost();
            offsets = new LinkedHashMap<>();
            offsets.put(0, offsetsOf(placed.get().held()));
        } else {
            placed = Optional.empty();
        }
        boolean complete = false;
        if (cost > lb && m.choosers.length <= work.searchUpTo() && work.nodes() > 0) {
            BranchAndBound.Result r = new BranchAndBound(m, work.nodes(), choice, cost).run();
            complete = r.complete();
            if (r.improved()) {
                choice = r.choice();
                cost = r.cost();
                offsets = r.offsets();
                placed = Optional.empty();
            }
        }
        if (choice == null) {
            return unplaceable(m, lb);
        }
        Assignment.Proof proof = cost <= lb ? Assignment.Proof.LOWER_BOUND
                : complete ? Assignment.Proof.SEARCH : Assignment.Proof.OPEN;
        Map<String, Map<String, Long>> placements = new LinkedHashMap<>();
        for (int s = 0; s < m.limited.size(); s++) {
            placements.put(m.limited.get(s).name(), offsets.get(s));
        }
        List<List<Allocation>> held = held(m, choice, placed);
        return new Result(resolved(m, choice), new Assignment(cost, Math.min(lb, cost), m.pinnedCost(), proof,
                choices(m, choice, held), Baselines.all(m)), placements);
    }

    /** The cheapest of the greedy orders, each repaired (the first of equal costs), if any placed. */
    private static Optional<Greedy.Result> bestOrder(Model m, Map<String, int[]> orders, Work work) {
        Optional<Greedy.Result> best = Optional.empty();
        for (Map.Entry<String, int[]> o : orders.entrySet()) {
            Optional<Greedy.Result> r = Greedy.run(m, o.getKey(), o.getValue(), work.placements())
                    .map(g -> Repair.improve(m, g, o.getValue(), work.placements()));
            if (r.isPresent() && (best.isEmpty() || r.get().cost() < best.get().cost())) {
                best = r;
            }
        }
        return best;
    }

    /** The best order's offsets, by index of the limited space; none when no order placed. */
    private static Map<Integer, Map<String, Long>> packingOffsets(Model m, Optional<Greedy.Result> best) {
        Map<Integer, Map<String, Long>> offsets = new LinkedHashMap<>();
        if (best.isPresent()) {
            Packing packing = best.get().packing();
            for (int s = 0; s < m.limited.size(); s++) {
                offsets.put(s, packing.offsets(s));
            }
        }
        return offsets;
    }

    /** What each limited space holds: the whole-buffer placement's, else {@code choice} replayed. */
    private static List<List<Allocation>> held(Model m, int[] choice, Optional<WholePlacement.Placed> placed) {
        List<List<Allocation>> held = new ArrayList<>();
        if (placed.isPresent()) {
            held.add(placed.get().held());
        } else {
            Packing fin = replay(m, choice);
            for (int s = 0; s < m.limited.size(); s++) {
                held.add(fin.allocations(s));
            }
        }
        return held;
    }

    private static Map<String, Long> offsetsOf(List<Allocation> held) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Allocation a : held) {
            out.put(a.name(), a.placement().offset());
        }
        return out;
    }

    /**
     * The buffers the whole-buffer relaxation ({@link LiveSetBound}) puts in some space first, then
     * the others, each part in {@code density}'s order: the relaxation's choice, placed for real.
     */
    private static int[] wholeFirst(Model m, int[] density, List<Optional<Bounds.Whole>> whole) {
        boolean[] chosen = new boolean[m.entries.length];
        for (Optional<Bounds.Whole> w : whole) {
            w.ifPresent(x -> {
                for (int r : x.ranks()) {
                    chosen[r] = true;
                }
            });
        }
        return IntStream.concat(Arrays.stream(density).filter(k -> chosen[k]),
                Arrays.stream(density).filter(k -> !chosen[k])).toArray();
    }

    /** Nothing fits by the placement rule: each buffer in its fallback (or last candidate); the planner says why. */
    private static Result unplaceable(Model m, long lb) {
        int[] choice = new int[m.entries.length];
        for (int k = 0; k < m.entries.length; k++) {
            Entry e = m.entries[k];
            choice[k] = e.pinned() ? 0 : e.fallback() >= 0 ? e.fallback() : e.options()[e.options().length - 1];
        }
        long cost = m.cost(choice);
        return new Result(resolved(m, choice), new Assignment(cost, Math.min(lb, cost), m.pinnedCost(), Assignment.Proof.OPEN,
                choices(m, choice, null), Baselines.all(m)), Map.of());
    }

    /** The packing of {@code choice}, for the reasons: its buffers placed in the placement order. */
    private static Packing replay(Model m, int[] choice) {
        Packing p = new Packing(m);
        for (int k = 0; k < m.entries.length; k++) {
            Entry e = m.entries[k];
            if (e.limited()[choice[k]] >= 0 && !p.append(k, choice[k])) {
                throw new IllegalStateException("the chosen " + e.name() + " no longer fits when placed again");
            }
        }
        return p;
    }

    private static Workload resolved(Model m, int[] choice) {
        BufferSpec[] out = new BufferSpec[m.entries.length];
        for (int k = 0; k < m.entries.length; k++) {
            Entry e = m.entries[k];
            out[e.index()] = e.pinned() ? e.spec() : e.spec().in(e.spec().candidates().get(choice[k]));
        }
        return new Workload(m.workload.name(), List.of(out), m.workload.fixed(), m.workload.operators());
    }

    /** What a space with a capacity holds, as the reasons look at it: first and last steps and reserved bytes. */
    private record Held(List<Allocation> allocations, int[] first, int[] last, long[] reserved) {
        static Held of(List<Allocation> held) {
            int n = held.size();
            int[] f = new int[n];
            int[] l = new int[n];
            long[] r = new long[n];
            for (int i = 0; i < n; i++) {
                f[i] = held.get(i).live().first();
                l[i] = held.get(i).live().last();
                r[i] = held.get(i).placement().reserved();
            }
            return new Held(held, f, l, r);
        }
    }

    /** The choices and their reasons; {@code bySpace}, what each space with a capacity holds, null when nothing was placed. */
    private static List<Assignment.Choice> choices(Model m, int[] choice, List<List<Allocation>> bySpace) {
        List<Held> held = new ArrayList<>();
        for (int s = 0; bySpace != null && s < m.limited.size(); s++) {
            held.add(Held.of(bySpace.get(s)));
        }
        Assignment.Choice[] byIndex = new Assignment.Choice[m.entries.length];
        for (int k = 0; k < m.entries.length; k++) {
            Entry e = m.entries[k];
            if (e.pinned()) {
                continue;
            }
            int c = choice[k];
            Space got = e.spec().candidates().get(c);
            Optional<Assignment.Why> why = c == 0 ? Optional.empty()
                    : Optional.of(why(m, e, c, bySpace == null ? null : e.limited()[0] < 0 ? null : held.get(e.limited()[0])));
            byIndex[e.index()] = new Assignment.Choice(e.name(), got.name(), c, e.cost()[c], why);
        }
        List<Assignment.Choice> out = new ArrayList<>();
        for (Assignment.Choice c : byIndex) {
            if (c != null) {
                out.add(c);
            }
        }
        return out;
    }

    /** Why {@code e} is not in its first candidate: at the step of its lifetime where that space held most, what held it. */
    private static Assignment.Why why(Model m, Entry e, int chosen, Held p) {
        Space first = e.spec().candidates().get(0);
        int s = e.limited()[0];
        int from = e.spec().live().first();
        int to = e.spec().live().last();
        if (e.cost()[0] >= e.cost()[chosen] || s < 0) {
            return new Assignment.Why(first.name(), from, 0, s < 0 ? 0 : Admission.limit(first), e.reserved()[0],
                    List.of(), Assignment.Reason.NOT_CHEAPER);
        }
        if (p == null) {
            return new Assignment.Why(first.name(), from, 0, Admission.limit(first), e.reserved()[0], List.of(),
                    Assignment.Reason.FULL);
        }
        LiveBytes.Peak peak = SavingsBound.occupied(p.first(), p.last(), p.reserved(), from, to);
        int step = peak.step() < 0 ? from : peak.step();
        List<Allocation> at = new ArrayList<>();
        for (Allocation a : p.allocations()) {
            if (a.live().first() <= step && step <= a.live().last() && a.placement().reserved() > 0) {
                at.add(a);
            }
        }
        at.sort(Comparator.comparingLong((Allocation a) -> -a.placement().reserved()).thenComparing(Allocation::name));
        List<String> holders = at.stream().limit(Assignment.Why.MAX_HOLDERS).map(Allocation::name).toList();
        long usable = Admission.limit(first);
        boolean full = peak.bytes() > usable - e.reserved()[0];
        return new Assignment.Why(first.name(), step, peak.bytes(), usable, e.reserved()[0], holders,
                full ? Assignment.Reason.FULL : Assignment.Reason.FRAGMENTED);
    }
}
