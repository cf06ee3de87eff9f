package dev.berth.solve.exact;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Sub-problems proved infeasible, learned by one search and kept across its restarts.
 *
 * <p>A sub-problem is a set C of items, each of which must sit at or above its floor
 * {@code m[k]}, without overlaps, below the limit. When a complete search of (C, m) fails, no
 * placement of C exists above those floors; then none exists above higher floors either. So a
 * later sub-problem (C, m') with {@code m'[k] >= m[k]} for every k fails at once. Which items
 * and floors failed does not depend on the search order; still, each search keeps its own memo
 * so that the searches of a {@link Portfolio} stay independent.
 *
 * <p>Entries are found by an order-free hash of the item set; at most {@link #PER_SET} floor
 * vectors are kept per set (a new one replaces those it subsumes, else the oldest), and at
 * most {@link #MAX_LONGS} floors in all, after which nothing more is recorded.
 */
final class FailureMemo {
    private static final int PER_SET = 32;
    private static final long MAX_LONGS = 8_000_000;

    private record Entry(int[] items, long[] floors) {
    }

    private final long[] zobrist;
    private final Map<Long, List<Entry>> bySet = new HashMap<>();
    private final int[] stamp;
    private final long[] scratch;
    private int stampValue;
    private long stored;

    FailureMemo(int n) {
        zobrist = new long[n];
        SplittableRandom r = new SplittableRandom(0x5EED_BE27L);
        for (int i = 0; i < n; i++) {
            zobrist[i] = r.nextLong();
        }
        stamp = new int[n];
        scratch = new long[n];
    }

    private long hash(int[] pool, int from, int len) {
        long h = len;
        for (int q = from; q < from + len; q++) {
            h ^= zobrist[pool[q]];
        }
        return h;
    }

    /** True when (pool[from, from+len), m) is known to have no placement. */
    boolean knownInfeasible(int[] pool, int from, int len, long[] m) {
        List<Entry> list = bySet.get(hash(pool, from, len));
        if (list == null) {
            return false;
        }
        int v = nextStamp();
        for (int q = from; q < from + len; q++) {
            stamp[pool[q]] = v;
        }
        for (Entry e : list) {
            if (e.items.length == len && dominated(e, m, v)) {
                return true;
            }
        }
        return false;
    }

    private boolean dominated(Entry e, long[] m, int v) {
        for (int i = 0; i < e.items.length; i++) {
            int k = e.items[i];
            if (stamp[k] != v || m[k] < e.floors[i]) {
                return false;
            }
        }
        return true;
    }

    /** Records that (pool[from, from+len), m) has no placement. */
    void recordInfeasible(int[] pool, int from, int len, long[] m) {
        if (stored + len > MAX_LONGS) {
            return;
        }
        int[] items = new int[len];
        long[] floors = new long[len];
        for (int q = 0; q < len; q++) {
            items[q] = pool[from + q];
            floors[q] = m[items[q]];
        }
        List<Entry> list = bySet.computeIfAbsent(hash(pool, from, len), h -> new ArrayList<>(2));
        // drop the entries the new one subsumes (same set, floors at least as high)
        int v = nextStamp();
        for (int k : items) {
            stamp[k] = v;
        }
        for (int i = list.size() - 1; i >= 0; i--) {
            Entry e = list.get(i);
            if (e.items.length == len && subsumedBy(e, items, floors, v)) {
                stored -= e.items.length;
                list.remove(i);
            }
        }
        if (list.size() == PER_SET) {
            stored -= list.remove(0).items.length;
        }
        list.add(new Entry(items, floors));
        stored += len;
    }

    /** True when old entry e is over the same items with floors at least as high as the new ones. */
    private boolean subsumedBy(Entry e, int[] items, long[] floors, int v) {
        for (int k : e.items) {
            if (stamp[k] != v) {
                return false;
            }
        }
        // both over the same set: compare floors item by item
        for (int i = 0; i < items.length; i++) {
            scratch[items[i]] = floors[i];
        }
        for (int i = 0; i < e.items.length; i++) {
            if (e.floors[i] < scratch[e.items[i]]) {
                return false;
            }
        }
        return true;
    }

    private int nextStamp() {
        if (++stampValue == Integer.MAX_VALUE) {
            Arrays.fill(stamp, 0);
            stampValue = 1;
        }
        return stampValue;
    }
}
