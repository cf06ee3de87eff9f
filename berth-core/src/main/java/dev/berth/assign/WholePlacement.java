package dev.berth.assign;

import dev.berth.admit.Admission;
import dev.berth.alloc.Allocation;
import dev.berth.alloc.SpaceAllocator;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;
import dev.berth.solve.skyline.SkylineSolver;
import dev.berth.target.Space;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Origin;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The whole-buffer relaxation's choice ({@link LiveSetBound}) placed by the skyline solver, for
 * a workload with one space with a capacity: where the placement rule of {@link Packing}
 * (largest first, lowest free offset) cannot hold the chosen set, a better placement often can,
 * and then the choice costs exactly the bound. The solver's offsets are admitted one by one by a
 * fresh {@link SpaceAllocator} (the same admission check as every try; a conflict or a limit
 * passed rejects the whole placement, and the allocator is dropped, so nothing of it remains).
 * The skyline's search is bounded by its own work settings, never by the clock.
 */
final class WholePlacement {
    /** The choice, its cost, and what the space holds then. */
    record Placed(int[] choice, long cost, List<Allocation> held) {
    }

    private WholePlacement() {
    }

    static Optional<Placed> place(Model m, Bounds.Whole whole) {
        if (m.limited.size() != 1) {
            return Optional.empty();
        }
        Optional<int[]> chosen = choice(m, whole);
        if (chosen.isEmpty()) {
            return Optional.empty();
        }
        int[] choice = chosen.get();
        Space space = m.limited.get(0);
        List<FixedRegion> fixed = m.fixed.get(0);
        List<Integer> ranks = new ArrayList<>();
        for (int k = 0; k < m.entries.length; k++) {
            if (m.entries[k].limited()[choice[k]] == 0) {
                ranks.add(k);
            }
        }
        int nf = fixed.size();
        int n = nf + ranks.size();
        String[] names = new String[n];
        long[] reserved = new long[n];
        long[] align = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        long[] at = new long[n];
        for (int i = 0; i < nf; i++) {
            FixedRegion f = fixed.get(i);
            names[i] = f.name();
            reserved[i] = f.size();
            align[i] = 1;
            first[i] = f.live().first();
            last[i] = f.live().last();
            at[i] = f.offset();
        }
        for (int j = 0; j < ranks.size(); j++) {
            int i = nf + j;
            Entry e = m.entries[ranks.get(j)];
            BufferSpec b = e.spec();
            names[i] = b.name();
            reserved[i] = e.reserved()[choice[ranks.get(j)]];
            align[i] = Admission.effectiveAlignment(space, b.name(), b.size(), b.alignment());
            first[i] = b.live().first();
            last[i] = b.live().last();
            at[i] = -1;
        }
        long limit = Admission.limit(space);
        Outcome o = new SkylineSolver().solve(new SpaceProblem(space, names, reserved, align, first, last, at, limit),
                Budget.unlimited());
        if (!(o instanceof Outcome.Solved solved) || solved.height() > limit) {
            return Optional.empty();
        }
        return held(m, space, fixed, ranks, solved.offsets())
                .map(held -> new Placed(choice, m.cost(choice), held));
    }

    /**
     * The option of each entry: a pinned one's first, a chosen one's (of {@code whole}) last option
     * outside the limited space, any other's fallback; empty when a chosen entry has none outside.
     */
    private static Optional<int[]> choice(Model m, Bounds.Whole whole) {
        boolean[] in = new boolean[m.entries.length];
        for (int r : whole.ranks()) {
            in[r] = true;
        }
        int[] choice = new int[m.entries.length];
        for (int k = 0; k < m.entries.length; k++) {
            Entry e = m.entries[k];
            if (e.pinned()) {
                choice[k] = 0;
            } else if (in[k]) {
                choice[k] = -1;
                for (int o : e.options()) {
                    if (e.limited()[o] == 0) {
                        choice[k] = o;
                    }
                }
            } else {
                choice[k] = e.fallback();
            }
            if (choice[k] < 0) {
                return Optional.empty();
            }
        }
        return Optional.of(choice);
    }

    /**
     * {@code space}'s fixed regions and the entries of {@code ranks} at {@code offsets} (the fixed
     * regions' first), reserved exactly by the allocator: what it holds, or empty when it refuses them.
     */
    private static Optional<List<Allocation>> held(Model m, Space space, List<FixedRegion> fixed, List<Integer> ranks,
                                                   long[] offsets) {
        int nf = fixed.size();
        SpaceAllocator a = new SpaceAllocator(space);
        try {
            List<SpaceAllocator.At> all = new ArrayList<>(nf + ranks.size());
            for (int i = 0; i < nf; i++) {
                FixedRegion f = fixed.get(i);
                all.add(new SpaceAllocator.At(f.name(), f.live(), f.offset(), f.size(), 1, Admission.Mode.EXACT,
                        Origin.FIXED));
            }
            for (int j = 0; j < ranks.size(); j++) {
                BufferSpec b = m.entries[ranks.get(j)].spec();
                all.add(new SpaceAllocator.At(b.name(), b.live(), offsets[nf + j], b.size(), b.alignment(),
                        Admission.Mode.EXACT, Origin.TENSOR));
            }
            a.reserveAllAt(all);
        } catch (BerthException e) {
            if (e.category() == Category.CAPACITY_EXCEEDED || e.category() == Category.ADDRESS_NOT_ENCODABLE
                    || e.category() == Category.INVALID_INPUT) {
                return Optional.empty();
            }
            throw e;
        }
        return Optional.of(a.allocations());
    }
}
