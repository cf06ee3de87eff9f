package dev.berth.bench;

import dev.berth.sweep.OverlapSweep;
import dev.berth.solve.SpaceProblem;

/**
 * Fails loudly when two items live at a common step share a byte: harness results must be real.
 * The sweep is the planning side's one ({@link OverlapSweep}), which the solvers measured here do
 * not use.
 */
final class Overlaps {
    private Overlaps() {
    }

    static void check(SpaceProblem p, long[] offsets) {
        int n = p.size();
        long[] end = new long[n];
        int[] first = new int[n];
        int[] last = new int[n];
        for (int i = 0; i < n; i++) {
            end[i] = offsets[i] + p.reserved(i);
            first[i] = p.first(i);
            last[i] = p.last(i);
        }
        int[] pair = OverlapSweep.firstConflict(offsets, end, first, last);
        if (pair.length > 0) {
            throw new IllegalStateException("items overlap: " + pair[0] + " and " + pair[1]);
        }
    }
}
