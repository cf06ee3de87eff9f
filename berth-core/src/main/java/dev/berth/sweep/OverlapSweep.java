package dev.berth.sweep;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whether reservations placed over step intervals collide: a sweep over the steps that keeps the
 * reservations live at the current step ordered by offset, so that a new one need only be compared
 * with its two neighbours there. O(n log n) for n reservations, however many share addresses at
 * other steps (a scan ordered by address alone would compare every pair that shares bytes: all of
 * them when each step reuses the same bytes). The one check of this kind on the planning side: the
 * allocator's batches ({@code SpaceAllocator.reserveAllAt}), a workload's fixed regions and the benchmark harness use it;
 * the plan validator keeps its own.
 */
public final class OverlapSweep {
    private OverlapSweep() {
    }

    /**
     * The first pair {@code {i, j}}, {@code i < j}, of reservations that share a step and a byte,
     * in the sweep's order; empty when none do. Reservation {@code k} holds bytes
     * {@code [offset[k], end[k])} over steps {@code first[k]..last[k]}; one with no bytes
     * ({@code end[k] == offset[k]}) shares nothing.
     */
    public static int[] firstConflict(long[] offset, long[] end, int[] first, int[] last) {
        int n = offset.length;
        if (end.length != n || first.length != n || last.length != n) {
            throw new IllegalArgumentException("arrays of different lengths");
        }
        int m = 0;
        long[] starts = new long[n];
        long[] stops = new long[n];
        for (int k = 0; k < n; k++) {
            if (end[k] > offset[k]) {
                // the step in the high half (signed, so steps order as ints), the index in the low half
                starts[m] = ((long) first[k] << 32) | k;
                stops[m] = ((long) last[k] << 32) | k;
                m++;
            }
        }
        Arrays.sort(starts, 0, m);
        Arrays.sort(stops, 0, m);
        TreeMap<Long, Integer> live = new TreeMap<>();
        int s = 0;
        for (int q = 0; q < m; q++) {
            int k = (int) starts[q];
            int step = (int) (starts[q] >> 32);
            // the reservations whose last step is before this one are gone (k's own stop, at a step
            // not before this one, ends the loop before s runs out)
            while ((int) (stops[s] >> 32) < step) {
                live.remove(offset[(int) stops[s]]);
                s++;
            }
            Integer same = live.get(offset[k]);
            if (same != null) {
                return pair(same, k);
            }
            Map.Entry<Long, Integer> below = live.lowerEntry(offset[k]);
            if (below != null && end[below.getValue()] > offset[k]) {
                return pair(below.getValue(), k);
            }
            Map.Entry<Long, Integer> above = live.higherEntry(offset[k]);
            if (above != null && above.getKey() < end[k]) {
                return pair(above.getValue(), k);
            }
            live.put(offset[k], k);
        }
        return new int[0];
    }

    private static int[] pair(int a, int b) {
        return new int[]{Math.min(a, b), Math.max(a, b)};
    }
}
