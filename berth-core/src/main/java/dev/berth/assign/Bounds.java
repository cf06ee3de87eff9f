package dev.berth.assign;

import dev.berth.admit.Admission;
import dev.berth.alloc.Allocation;

import java.util.ArrayList;
import java.util.List;

/**
 * Lower bounds of the traffic cost. For the buffers of rank {@code k} on, given what the packing
 * holds: at least each one's cheapest option; and, tighter, each one's base cost
 * ({@link Entry#baseCost}) less what the spaces with a capacity can save at most
 * ({@link SavingsBound}, the per-step relaxation of each such space, with the room that what
 * is held and the remaining buffers without candidates take away). Summing the spaces' savings
 * counts a buffer in several spaces at once, which only loosens the bound.
 */
final class Bounds {
    private Bounds() {
    }

    /**
     * The bound of the whole workload's cost, before anything is chosen: the better of the flow
     * relaxation's and the per-step knapsacks' ({@link StepKnapsackBound}).
     */
    static long root(Model m, int[] known) {
        Packing empty = new Packing(m);
        return Math.max(rest(m, 0, empty, null), rest(m, 0, empty, known));
    }

    /** The bound of ranks {@code k..} by the flow relaxation (what the search uses at every node). */
    static long rest(Model m, int k, Packing p) {
        return rest(m, k, p, null);
    }

    /** With {@code known}, an assignment whose savings guide the subgradient, by the Lagrangian knapsacks. */
    private static long rest(Model m, int k, Packing p, int[] known) {
        long min = 0;
        long base = 0;
        for (int r = k; r < m.entries.length; r++) {
            Entry e = m.entries[r];
            min = Model.add(min, e.minCost());
            base = Model.add(base, e.pinned() ? e.cost()[0] : e.baseCost());
        }
        long saved = 0;
        for (int s = 0; s < m.limited.size(); s++) {
            long one = savings(m, k, p, s, known);
            if (one == Long.MAX_VALUE || saved > Long.MAX_VALUE - one) {
                return min;
            }
            saved += one;
        }
        return Math.max(min, base - saved);
    }

    private static long savings(Model m, int k, Packing p, int s, int[] known) {
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
                    // gain = accesses x size x (base accessCost - this one): a whole multiple of size
                    cand.add(new long[]{e.spec().live().first(), e.spec().live().last(), size, gain / size});
                }
            }
        }
        if (cand.isEmpty()) {
            return 0;
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
        int[] f = new int[nc];
        int[] l = new int[nc];
        long[] b = new long[nc];
        long[] w = new long[nc];
        for (int i = 0; i < nc; i++) {
            f[i] = (int) cand.get(i)[0];
            l[i] = (int) cand.get(i)[1];
            b[i] = cand.get(i)[2];
            w[i] = cand.get(i)[3];
        }
        long limit = Admission.limit(m.limited.get(s));
        if (known == null) {
            return SavingsBound.savings(limit, of, ol, or, f, l, b, w);
        }
        long achieved = 0;
        for (int r = k; r < m.entries.length; r++) {
            Entry e = m.entries[r];
            if (!e.pinned() && e.limited()[known[r]] == s) {
                achieved += e.baseCost() - e.cost()[known[r]];
            }
        }
        return StepKnapsackBound.savings(limit, of, ol, or, f, l, b, w, achieved);
    }
}
