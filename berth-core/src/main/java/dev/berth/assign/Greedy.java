package dev.berth.assign;

import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The fast heuristic: buffers in a priority order, each into its cheapest candidate that fits
 * beside what is already chosen ({@link Packing#insert}, a real placement), the fallback when
 * none does; then a second pass over those left in their fallback, since room can open when
 * the placement is redone in its order. {@link #orders} are the priorities tried: savings per
 * byte-step (the benefit density), savings, and the placement order itself (largest first);
 * buffers whose every candidate has a capacity go before the others, in that priority.
 * Work is counted in reservations; once the limit is reached the remaining buffers keep their
 * fallback.
 */
final class Greedy {
    /** A feasible assignment and the packing that holds it. */
    record Result(int[] choice, long cost, Packing packing, String order) {
    }

    private Greedy() {
    }

    /** The priority orders, by name: the ranks of the buffers with candidates. */
    static LinkedHashMap<String, int[]> orders(Model m) {
        LinkedHashMap<String, int[]> out = new LinkedHashMap<>();
        Integer[] r = Arrays.stream(m.choosers).boxed().toArray(Integer[]::new);
        Integer[] density = r.clone();
        Arrays.sort(density, Comparator.comparingDouble((Integer k) -> -density(m.entries[k]))
                .thenComparingLong(k -> -savings(m.entries[k])).thenComparingInt(k -> k));
        out.put("density", Arrays.stream(density).mapToInt(Integer::intValue).toArray());
        Integer[] savings = r.clone();
        Arrays.sort(savings, Comparator.comparingLong((Integer k) -> -savings(m.entries[k])).thenComparingInt(k -> k));
        out.put("savings", Arrays.stream(savings).mapToInt(Integer::intValue).toArray());
        out.put("size", m.choosers.clone());
        Integer[] perStep = r.clone();
        Arrays.sort(perStep, Comparator.comparingDouble((Integer k) -> -(double) savings(m.entries[k])
                / steps(m.entries[k])).thenComparingInt(k -> k));
        out.put("savings-per-step", Arrays.stream(perStep).mapToInt(Integer::intValue).toArray());
        Integer[] perByte = r.clone();
        Arrays.sort(perByte, Comparator.comparingDouble((Integer k) -> -(double) savings(m.entries[k])
                / Math.max(1, m.entries[k].spec().size())).thenComparingLong(k -> -m.entries[k].spec().size())
                .thenComparingInt(k -> k));
        out.put("savings-per-byte", Arrays.stream(perByte).mapToInt(Integer::intValue).toArray());
        return out;
    }

    /** What the buffer saves in its cheapest option against its base cost. */
    static long savings(Entry e) {
        return e.baseCost() - e.minCost();
    }

    static long steps(Entry e) {
        return (long) e.spec().live().last() - e.spec().live().first() + 1;
    }

    /** Savings per reserved byte per step (for the order only). */
    static double density(Entry e) {
        long bytes = Math.max(1, e.reserved()[e.options()[0]]);
        long steps = (long) e.spec().live().last() - e.spec().live().first() + 1;
        return (double) savings(e) / ((double) bytes * steps);
    }

    /** The packing of the buffers without candidates alone, or empty when they do not fit by the placement rule. */
    static Optional<Packing> pinned(Model m, int[] choice) {
        Packing p = new Packing(m);
        if (!p.fixedFit()) {
            return Optional.empty();
        }
        for (int k = 0; k < m.entries.length; k++) {
            Entry e = m.entries[k];
            if (e.pinned()) {
                choice[k] = 0;
                if (e.limited()[0] >= 0 && !p.append(k, 0)) {
                    return Optional.empty();
                }
            } else {
                choice[k] = e.fallback();
            }
        }
        return Optional.of(p);
    }

    /** The assignment by {@code order}, or empty when some buffer fits none of its candidates. */
    static Optional<Result> run(Model m, String name, int[] order, long workLimit) {
        int[] choice = new int[m.entries.length];
        Optional<Packing> start = pinned(m, choice);
        if (start.isEmpty()) {
            return Optional.empty();
        }
        Packing p = start.get();
        // a buffer without a fallback goes first: it has nowhere else to go
        int[] mustFirst = IntStream.concat(
                Arrays.stream(order).filter(k -> m.entries[k].fallback() < 0),
                Arrays.stream(order).filter(k -> m.entries[k].fallback() >= 0)).toArray();
        for (int pass = 0; pass < 2; pass++) {
            for (int k : mustFirst) {
                Entry e = m.entries[k];
                int now = choice[k];
                if (now >= 0 && e.limited()[now] >= 0) {
                    continue;
                }
                for (int o : e.options()) {
                    if (e.limited()[o] < 0 || p.work() >= workLimit) {
                        break;
                    }
                    if (p.insert(k, o)) {
                        choice[k] = o;
                        break;
                    }
                }
            }
        }
        for (int c : choice) {
            if (c < 0) {
                return Optional.empty();
            }
        }
        return Optional.of(new Result(choice, m.cost(choice), p, name));
    }
}
