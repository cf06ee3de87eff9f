package dev.berth.assign;

import dev.berth.admit.Admission;
import dev.berth.alloc.Allocation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Lower bounds of the traffic cost. For the buffers of rank {@code k} on, given what the packing
 * holds: at least each one's cheapest option; and, tighter, each one's base cost
 * ({@link Entry#baseCost}) less what the spaces with a capacity can save at most: per space, the
 * per-step relaxation, with the room that what is held and the remaining buffers without
 * candidates take away, fractionally ({@link SavingsBound}, a minimum-cost flow; and
 * {@link StepKnapsackBound}, its Lagrangian knapsacks) or in whole buffers
 * ({@link LiveSetBound}, exact when its work allows). Summing the spaces' savings counts a buffer
 * in several spaces at once, which only loosens the bound.
 */
final class Bounds {
    private Bounds() {
    }

    /**
     * One space's relaxation: what holds it already ({@code o*}) and the candidates for it, each
     * the rank of its buffer, its step range, the bytes it requests and reserves there and what it
     * saves there against its base cost.
     */
    record Instance(long limit, int[] ofirst, int[] olast, long[] oreserved, int[] rank, int[] first, int[] last,
                    long[] size, long[] reserved, long[] gain) {
    }

    /**
     * The whole-buffer relaxation of each space with a capacity, before anything is chosen: per
     * space, its result with the ranks it puts there, or empty when its work ran out.
     */
    static List<Optional<Whole>> whole(Model m) {
        Packing empty = new Packing(m);
        List<Optional<Whole>> out = new ArrayList<>();
        for (int s = 0; s < m.limited.size(); s++) {
            Instance in = instance(m, 0, empty, s);
            Optional<LiveSetBound.Result> r = LiveSetBound.solve(in.limit(), in.ofirst(), in.olast(), in.oreserved(),
                    in.first(), in.last(), in.reserved(), in.gain(), LiveSetBound.WORK);
            out.add(r.map(x -> {
                List<Integer> ranks = new ArrayList<>();
                for (int i = 0; i < in.rank().length; i++) {
                    if (x.chosen()[i]) {
                        ranks.add(in.rank()[i]);
                    }
                }
                return new Whole(x.savings(), ranks.stream().mapToInt(Integer::intValue).toArray());
            }));
        }
        return out;
    }

    /** What a space saves at most in whole buffers, and the ranks of the buffers that save it. */
    record Whole(long savings, int[] ranks) {
    }

    /**
     * The bound of the whole workload's cost, before anything is chosen: per space the
     * whole-buffer relaxation's savings where {@code whole} has them, or else the least of the flow
     * relaxation's and the per-step knapsacks' ({@link StepKnapsackBound}, guided by
     * {@code known}, an assignment whose savings set the subgradient's steps).
     */
    static long root(Model m, int[] known, List<Optional<Whole>> whole) {
        Packing empty = new Packing(m);
        long saved = 0;
        for (int s = 0; s < m.limited.size(); s++) {
            Instance in = instance(m, 0, empty, s);
            // the whole buffers' savings are never above the fractional ones (with requested bytes, fewer than reserved)
            long one = whole.get(s).isPresent() ? whole.get(s).get().savings()
                    : Math.min(flow(in), knapsacks(m, s, in, known));
            if (one == Long.MAX_VALUE || saved > Long.MAX_VALUE - one) {
                return min(m, 0);
            }
            saved += one;
        }
        return Math.max(min(m, 0), base(m, 0) - saved);
    }

    /** The bound of ranks {@code k..} by the flow relaxation (what the search uses at every node). */
    static long rest(Model m, int k, Packing p) {
        long saved = 0;
        for (int s = 0; s < m.limited.size(); s++) {
            long one = flow(instance(m, k, p, s));
            if (one == Long.MAX_VALUE || saved > Long.MAX_VALUE - one) {
                return min(m, k);
            }
            saved += one;
        }
        return Math.max(min(m, k), base(m, k) - saved);
    }

    private static long min(Model m, int k) {
        long min = 0;
        for (int r = k; r < m.entries.length; r++) {
            min = Model.add(min, m.entries[r].minCost());
        }
        return min;
    }

    private static long base(Model m, int k) {
        long base = 0;
        for (int r = k; r < m.entries.length; r++) {
            Entry e = m.entries[r];
            base = Model.add(base, e.pinned() ? e.cost()[0] : e.baseCost());
        }
        return base;
    }

    private static Instance instance(Model m, int k, Packing p, int s) {
        List<long[]> occ = new ArrayList<>();
        for (Allocation a : p.allocations(s)) {
            occ.add(new long[]{a.live().first(), a.live().last(), a.placement().reserved()});
        }
        List<long[]> cand = new ArrayList<>();
        for (int r = k; r < m.entries.length; r++) {
            Entry e = m.entries[r];
            if (e.pinned()) {
                if (e.limited()[0] == s) {
                    occ.add(new long[]{e.spec().live().first(), e.spec().live().last(), e.reserved()[0]});
                }
                continue;
            }
            long size = e.spec().size();
            if (size == 0) {
                continue;
            }
            for (int o : e.options()) {
                long gain = e.baseCost() - e.cost()[o];
                if (e.limited()[o] == s && gain > 0) {
                    cand.add(new long[]{r, e.spec().live().first(), e.spec().live().last(), size, e.reserved()[o], gain});
                }
            }
        }
        int no = occ.size();
        int[] of = new int[no];
        int[] ol = new int[no];
        long[] or = new long[no];
        for (int i = 0; i < no; i++) {
            of[i] = (int) occ.get(i)[0];
            ol[i] = (int) occ.get(i)[1];
            or[i] = occ.get(i)[2];
        }
        int nc = cand.size();
        int[] rank = new int[nc];
        int[] f = new int[nc];
        int[] l = new int[nc];
        long[] size = new long[nc];
        long[] reserved = new long[nc];
        long[] gain = new long[nc];
        for (int i = 0; i < nc; i++) {
            long[] c = cand.get(i);
            rank[i] = (int) c[0];
            f[i] = (int) c[1];
            l[i] = (int) c[2];
            size[i] = c[3];
            reserved[i] = c[4];
            gain[i] = c[5];
        }
        return new Instance(Admission.limit(m.limited.get(s)), of, ol, or, rank, f, l, size, reserved, gain);
    }

    /** gain = accesses x size x (base accessCost - this one): a whole multiple of size. */
    private static long[] perByte(Instance in) {
        long[] w = new long[in.gain().length];
        for (int i = 0; i < w.length; i++) {
            w[i] = in.gain()[i] / in.size()[i];
        }
        return w;
    }

    private static long flow(Instance in) {
        if (in.rank().length == 0) {
            return 0;
        }
        return SavingsBound.savings(in.limit(), in.ofirst(), in.olast(), in.oreserved(), in.first(), in.last(),
                in.size(), perByte(in));
    }

    private static long knapsacks(Model m, int s, Instance in, int[] known) {
        if (in.rank().length == 0) {
            return 0;
        }
        long achieved = 0;
        for (int r = 0; r < m.entries.length; r++) {
            Entry e = m.entries[r];
            if (!e.pinned() && e.limited()[known[r]] == s) {
                achieved += e.baseCost() - e.cost()[known[r]];
            }
        }
        return StepKnapsackBound.savings(in.limit(), in.ofirst(), in.olast(), in.oreserved(), in.first(), in.last(),
                in.size(), perByte(in), achieved);
    }
}
