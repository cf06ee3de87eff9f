package dev.berth.solve.exact;

/**
 * A static order of the items, which breaks ties between items with the same floor (MiniMalloc
 * calls these pre-orderings). Named by a string of keys, each compared in decreasing order,
 * the first difference deciding, then the item's index:
 * {@code W} lifetime width in steps, {@code A} area (size times width), {@code T} the largest
 * section total among the item's sections, {@code Z} size.
 */
final class ItemOrder {
    private ItemOrder() {
    }

    /** {@code rank[i]}: the position of item i in the order {@code keys}, with the instance's section totals. */
    static int[] ranks(Instance in, String keys) {
        int n = in.n;
        int[] items = new int[n];
        for (int i = 0; i < n; i++) {
            items[i] = i;
        }
        int[] rank = new int[n];
        rankPart(in, keys, in.sectionTotal, items, 0, n, rank);
        return rank;
    }

    /**
     * Ranks the items {@code items[from, from+len)} among themselves (ranks 0..len-1 written into
     * {@code rank}), by the order {@code keys}, taking {@code T} from the section totals
     * {@code total} (the unplaced bytes of each section, for a sub-problem met during search).
     */
    static void rankPart(Instance in, String keys, long[] total, int[] items, int from, int len, int[] rank) {
        long[] sectionMax = sectionMax(in, total, items, from, len);
        int[] idx = new int[len];
        for (int q = 0; q < len; q++) {
            idx[q] = q;
        }
        IntSort.sort(idx, (a, b) -> {
            int ia = items[from + a];
            int ib = items[from + b];
            for (int k = 0; k < keys.length(); k++) {
                int r = switch (keys.charAt(k)) {
                    case 'W' -> Long.compare(in.width[ib], in.width[ia]);
                    case 'A' -> compareProducts(in.size[ib], in.width[ib], in.size[ia], in.width[ia]);
                    case 'T' -> Long.compare(sectionMax[b], sectionMax[a]);
                    case 'Z' -> Long.compare(in.size[ib], in.size[ia]);
                    default -> throw new IllegalArgumentException("unknown order key '" + keys.charAt(k) + "' in " + keys);
                };
                if (r != 0) {
                    return r;
                }
            }
            return Integer.compare(ia, ib);
        });
        for (int r = 0; r < len; r++) {
            rank[items[from + idx[r]]] = r;
        }
    }

    /**
     * For each item {@code items[from + q]}, the largest {@code total[s]} over its sections. Read
     * directly when that touches fewer entries than a sparse table over the items' range of
     * sections would hold (R sections, R log R entries); else through the table, O(1) an item.
     */
    static long[] sectionMax(Instance in, long[] total, int[] items, int from, int len) {
        long[] out = new long[len];
        if (len == 0) {
            return out;
        }
        int lo = Integer.MAX_VALUE;
        int hi = -1;
        long spans = 0;
        for (int q = 0; q < len; q++) {
            int i = items[from + q];
            lo = Math.min(lo, in.secFirst[i]);
            hi = Math.max(hi, in.secLast[i]);
            spans += in.secLast[i] - in.secFirst[i] + 1;
        }
        int range = hi - lo + 1;
        int levels = 32 - Integer.numberOfLeadingZeros(range);
        if (spans <= (long) range * levels) {
            for (int q = 0; q < len; q++) {
                int i = items[from + q];
                long t = 0;
                for (int s = in.secFirst[i]; s <= in.secLast[i]; s++) {
                    t = Math.max(t, total[s]);
                }
                out[q] = t;
            }
            return out;
        }
        // table[k * range + x]: the largest total over sections lo + x .. lo + x + 2^k - 1
        long[] table = new long[levels * range];
        System.arraycopy(total, lo, table, 0, range);
        for (int k = 1; k < levels; k++) {
            int half = 1 << (k - 1);
            int base = k * range;
            int prev = (k - 1) * range;
            for (int x = 0; x + (1 << k) <= range; x++) {
                table[base + x] = Math.max(table[prev + x], table[prev + x + half]);
            }
        }
        for (int q = 0; q < len; q++) {
            int i = items[from + q];
            int a = in.secFirst[i] - lo;
            int b = in.secLast[i] - lo;
            int k = 31 - Integer.numberOfLeadingZeros(b - a + 1);
            out[q] = Math.max(Math.max(0, table[k * range + a]), table[k * range + b - (1 << k) + 1]);
        }
        return out;
    }

    /** Checks the keys of an order. */
    static String check(String keys) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("an order needs at least one key");
        }
        for (char k : keys.toCharArray()) {
            if ("WATZ".indexOf(k) < 0) {
                throw new IllegalArgumentException("unknown order key '" + k + "' in " + keys + " (keys: W, A, T, Z)");
            }
        }
        return keys;
    }

    /** Compares {@code a1 * b1} with {@code a2 * b2} exactly (non-negative operands, 128-bit products). */
    static int compareProducts(long a1, long b1, long a2, long b2) {
        long hi1 = Math.multiplyHigh(a1, b1);
        long hi2 = Math.multiplyHigh(a2, b2);
        if (hi1 != hi2) {
            return Long.compare(hi1, hi2);
        }
        return Long.compareUnsigned(a1 * b1, a2 * b2);
    }
}
