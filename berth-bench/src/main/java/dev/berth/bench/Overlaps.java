package dev.berth.bench;

import dev.berth.solve.SpaceProblem;

import java.util.Arrays;
import java.util.TreeMap;

/** A sweep that fails loudly when two items live at a common step share a byte: harness results must be real. */
final class Overlaps {
    private Overlaps() {
    }

    static void check(SpaceProblem p, long[] offsets) {
        int n = p.size();
        Integer[] byFirst = new Integer[n];
        for (int i = 0; i < n; i++) {
            byFirst[i] = i;
        }
        Arrays.sort(byFirst, (a, b) -> Integer.compare(p.first(a), p.first(b)));
        // live items by offset; an item leaves when a later one starts after its last step
        TreeMap<Long, Integer> live = new TreeMap<>();
        java.util.PriorityQueue<Integer> byLast = new java.util.PriorityQueue<>((a, b) -> Integer.compare(p.last(a), p.last(b)));
        for (int i : byFirst) {
            while (!byLast.isEmpty() && p.last(byLast.peek()) < p.first(i)) {
                int gone = byLast.poll();
                live.remove(offsets[gone], gone);
            }
            if (p.reserved(i) == 0) {
                continue;
            }
            var below = live.floorEntry(offsets[i]);
            var above = live.ceilingEntry(offsets[i]);
            if ((below != null && offsets[below.getValue()] + p.reserved(below.getValue()) > offsets[i])
                    || (above != null && offsets[i] + p.reserved(i) > offsets[above.getValue()])) {
                throw new IllegalStateException("items overlap: " + i + " and a live neighbour");
            }
            live.put(offsets[i], i);
            byLast.add(i);
        }
    }
}
