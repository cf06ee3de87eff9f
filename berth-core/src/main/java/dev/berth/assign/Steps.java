package dev.berth.assign;

import dev.berth.workload.Lifetime;

import java.util.Map;
import java.util.TreeMap;

/** A set of steps, as disjoint intervals: what {@link Packing} has taken out, to find what else must move. */
final class Steps {
    /** first step -> last step, disjoint and not adjacent. */
    private final TreeMap<Integer, Integer> runs = new TreeMap<>();

    boolean overlaps(Lifetime l) {
        Map.Entry<Integer, Integer> e = runs.floorEntry(l.last());
        return e != null && e.getValue() >= l.first();
    }

    void add(Lifetime l) {
        int first = l.first();
        int last = l.last();
        Map.Entry<Integer, Integer> e = runs.floorEntry(first);
        if (e != null && e.getValue() >= first - 1L) {
            first = e.getKey();
            last = Math.max(last, e.getValue());
        }
        Map.Entry<Integer, Integer> n;
        while ((n = runs.ceilingEntry(first)) != null && n.getKey() <= last + 1L) {
            last = Math.max(last, n.getValue());
            runs.remove(n.getKey());
        }
        runs.put(first, last);
    }
}
