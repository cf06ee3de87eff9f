package dev.berth.plan;

import dev.berth.admit.Admission;
import dev.berth.admit.Placement;
import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import dev.berth.solve.Budget;
import dev.berth.solve.SpaceProblem;
import dev.berth.target.Space;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The admit phase: every buffer and fixed region at the offset its space's search gave, through
 * the one admission check ({@link Admission#admit}). A space that does not fit gets its
 * {@link Diagnosis}; when several spaces fail, the failure of the highest precedence is thrown
 * (contract §1: an address-format failure outranks a capacity failure).
 */
final class SpaceAdmission {
    private SpaceAdmission() {
    }

    /** Admits the searched placement of every space, or throws the first failure by precedence. */
    static void admit(SpacePlans spaces, Budget budget) {
        List<BerthException> failures = new ArrayList<>();
        for (SpacePlan sp : spaces) {
            SpaceOutcome o = sp.outcome();
            try {
                sp.admitted(admitAll(sp.space(), sp.items(), sp.problem(), o.offsets()));
            } catch (BerthException e) {
                failures.add(e.category() == Category.CAPACITY_EXCEEDED
                        ? Diagnosis.capacity(sp.space(), sp.problem(), (Failure.CapacityExceeded) e.failure(), o, budget)
                        : e);
            }
        }
        if (!failures.isEmpty()) {
            failures.sort(Comparator.comparingInt(e -> e.category().precedence()));
            throw failures.get(0);
        }
    }

    /**
     * Admits every item at its solved offset. When one fails, the failure reported is that of
     * the lowest reservation past a limit: the items are then admitted again lowest end first
     * (admission has no side effects, so only a failing space pays for the sort). Returns the
     * placements in item order.
     */
    private static List<Placement> admitAll(Space s, List<Item> items, SpaceProblem p, long[] offsets) {
        int n = items.size();
        Placement[] out = new Placement[n];
        try {
            boolean aligned = true;
            for (int i = 0; i < n && aligned; i++) {
                out[i] = admit(s, items.get(i), offsets[i]);
                aligned = out[i].offset() == offsets[i];
            }
            if (aligned) {
                return List.of(out);
            }
        } catch (BerthException e) {
            // the lowest end's failure is the one to report: below
        }
        long[] ends = new long[n];
        boolean packed = n <= 1 << 20;
        for (int i = 0; i < n; i++) {
            ends[i] = Checked.saturatingAdd(offsets[i], p.reserved(i));
            packed &= ends[i] >= 0 && ends[i] < 1L << 43;
        }
        int[] order = lowestEndFirst(ends, packed);
        for (int i : order) {
            Placement pl = admit(s, items.get(i), offsets[i]);
            if (pl.offset() != offsets[i]) {
                throw new IllegalStateException("solver placed " + items.get(i).name() + " at unaligned offset " + offsets[i]);
            }
            out[i] = pl;
        }
        return List.of(out);
    }

    /** The one admission check for one item: a fixed region exactly where the input put it, a buffer aligned. */
    private static Placement admit(Space s, Item it, long offset) {
        return it.fixedOffset() >= 0
                ? Admission.admit(s, it.name(), it.fixedOffset(), it.requested(), 1, Admission.Mode.EXACT, true)
                : Admission.admit(s, it.name(), offset, it.requested(), it.alignment());
    }

    /** Item indices by end, then index; sorted as packed longs when every end and index fit in 63 bits. */
    private static int[] lowestEndFirst(long[] ends, boolean packed) {
        int n = ends.length;
        int[] order = new int[n];
        if (packed) {
            long[] keys = new long[n];
            for (int i = 0; i < n; i++) {
                keys[i] = (ends[i] << 20) | i;
            }
            Arrays.sort(keys);
            for (int i = 0; i < n; i++) {
                order[i] = (int) (keys[i] & ((1 << 20) - 1));
            }
            return order;
        }
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> {
            int c = Long.compare(ends[a], ends[b]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        for (int i = 0; i < n; i++) {
            order[i] = boxed[i];
        }
        return order;
    }
}
