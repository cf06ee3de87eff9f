package dev.berth.assign;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The most one space with a capacity can save when each buffer is in it at all its steps or at
 * none and, at every step, the reserved bytes of the buffers there (with what already holds the
 * space) stay within its limit: the per-step relaxation in whole buffers, solved exactly. It
 * bounds what any assignment saves with any placement (a placement holds every buffer's reserved
 * bytes at every step it is live), and is never looser than the fractional relaxations
 * ({@link SavingsBound}, {@link StepKnapsackBound}); where the buffers are large against the
 * space it is much tighter. The chosen buffers are also the first ones the greedy tries
 * ({@link Assigner}).
 *
 * <p>A dynamic program over the steps: a state is the set of chosen buffers live at the current
 * step with the best savings of any choice so far that leaves that set; at each step the
 * buffers that ended leave every state, the states that no longer fit the step's room are
 * dropped, and each buffer that starts is added to the states it fits beside. Buffers that fit
 * beside everything else at every step of their own are taken first and never branched on.
 * Work is counted in state visits, each one plus the buffers of its live set (what the visit
 * copies); past the limit there is no result (the caller keeps the fractional bounds).
 */
final class LiveSetBound {
    /**
     * Work (state visits, each one plus the size of its live set) before the program gives up:
     * the shared models need at most 21,008 (ch_PP-OCRv4_det at a quarter of its peak live).
     */
    static final long WORK = 1_000_000;

    /** The most saved, and which candidates achieve it. */
    record Result(long savings, boolean[] chosen, long work) {
    }

    private LiveSetBound() {
    }

    /** A set of chosen buffers live now: the key of a state. */
    private record Live(int[] items) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Live l && Arrays.equals(items, l.items);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(items);
        }
    }

    /** A chosen buffer and the ones chosen before it: the choice behind a state. */
    private record Trace(int item, Trace before) {
    }

    private record State(long used, long value, Trace trace) {
    }

    /**
     * The best choice of candidates {@code i} (live over {@code [first[i], last[i]]}, reserving
     * {@code bytes[i]}, saving {@code gain[i]}) beside the occupied items, within {@code limit} at
     * every step; empty past {@code work} (see {@link #WORK}) or when a sum passes 2^63-1.
     */
    static Optional<Result> solve(long limit, int[] ofirst, int[] olast, long[] oreserved,
                                  int[] first, int[] last, long[] bytes, long[] gain, long work) {
        int n = first.length;
        TreeSet<Long> cuts = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            cuts.add((long) first[i]);
            cuts.add((long) last[i] + 1);
        }
        if (cuts.isEmpty()) {
            return Optional.of(new Result(0, new boolean[0], 0));
        }
        long lo = cuts.first();
        long hi = cuts.last();
        for (int i = 0; i < ofirst.length; i++) {
            if (oreserved[i] > 0 && ofirst[i] < hi && olast[i] + 1L > lo) {
                cuts.add(Math.max(lo, ofirst[i]));
                cuts.add(Math.min(hi, olast[i] + 1L));
            }
        }
        long[] b = cuts.stream().mapToLong(Long::longValue).toArray();
        int segs = b.length - 1;
        long[] room = new long[segs];
        for (int k = 0; k < segs; k++) {
            room[k] = Math.max(0, limit - SavingsBound.occupied(ofirst, olast, oreserved, b[k], b[k + 1] - 1).bytes());
        }
        int[] from = new int[n];
        int[] to = new int[n];
        // what every candidate together would take from each segment
        long[] all = new long[segs];
        boolean[] usable = new boolean[n];
        for (int i = 0; i < n; i++) {
            from[i] = Arrays.binarySearch(b, first[i]);
            to[i] = Arrays.binarySearch(b, (long) last[i] + 1);
            usable[i] = gain[i] > 0;
            for (int k = from[i]; k < to[i] && usable[i]; k++) {
                usable[i] = bytes[i] <= room[k];
            }
            for (int k = from[i]; k < to[i] && usable[i]; k++) {
                all[k] = saturating(all[k], bytes[i]);
            }
        }
        boolean[] chosen = new boolean[n];
        long base = 0;
        List<List<Integer>> starts = new ArrayList<>();
        for (int k = 0; k < segs; k++) {
            starts.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            if (!usable[i]) {
                continue;
            }
            boolean free = true;
            for (int k = from[i]; k < to[i] && free; k++) {
                // a saturated sum (past 2^63-1) is not "fits": the candidates there exceed any room
                free = all[k] < Long.MAX_VALUE && all[k] <= room[k];
            }
            if (free) {
                // beside every other candidate at each of its steps: taken, and it takes no room anyone needs
                chosen[i] = true;
                base = Math.addExact(base, gain[i]);
            } else {
                starts.get(from[i]).add(i);
            }
        }
        Map<Live, State> states = new LinkedHashMap<>();
        states.put(new Live(new int[0]), new State(0, 0, null));
        long visits = 0;
        try {
            for (int k = 0; k < segs; k++) {
                Map<Live, State> next = new LinkedHashMap<>();
                for (Map.Entry<Live, State> e : states.entrySet()) {
                    int[] items = e.getKey().items();
                    State s = e.getValue();
                    visits += 1 + items.length;
                    int keep = 0;
                    for (int i : items) {
                        if (to[i] > k) {
                            keep++;
                        }
                    }
                    int[] now = new int[keep];
                    long used = s.used();
                    int j = 0;
                    for (int i : items) {
                        if (to[i] > k) {
                            now[j++] = i;
                        } else {
                            used -= bytes[i];
                        }
                    }
                    if (used <= room[k]) {
                        merge(next, new Live(now), new State(used, s.value(), s.trace()));
                    }
                }
                states = next;
                if (visits > work) {
                    return Optional.empty();
                }
                for (int i : starts.get(k)) {
                    next = new LinkedHashMap<>(states);
                    for (Map.Entry<Live, State> e : states.entrySet()) {
                        State s = e.getValue();
                        visits += 1 + e.getKey().items().length;
                        // used <= room and bytes <= room (usable): room - used cannot overflow
                        if (bytes[i] <= room[k] - s.used()) {
                            int[] with = Arrays.copyOf(e.getKey().items(), e.getKey().items().length + 1);
                            with[with.length - 1] = i;
                            Arrays.sort(with);
                            merge(next, new Live(with), new State(Math.addExact(s.used(), bytes[i]), Math.addExact(s.value(), gain[i]),
                                    new Trace(i, s.trace())));
                        }
                    }
                    states = next;
                    if (visits > work) {
                        return Optional.empty();
                    }
                }
            }
            State best = null;
            for (State s : states.values()) {
                if (best == null || s.value() > best.value()) {
                    best = s;
                }
            }
            for (Trace t = best.trace(); t != null; t = t.before()) {
                chosen[t.item()] = true;
            }
            return Optional.of(new Result(Math.addExact(base, best.value()), chosen, visits));
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
    }

    /** Keeps the better of two states with the same live set (the first on a tie). */
    private static void merge(Map<Live, State> states, Live key, State s) {
        State was = states.get(key);
        if (was == null || s.value() > was.value()) {
            states.put(key, s);
        }
    }

    private static long saturating(long a, long b) {
        return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
    }
}
