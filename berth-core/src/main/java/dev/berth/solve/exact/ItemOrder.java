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
        long[] sectionMax = new long[len];
        int[] idx = new int[len];
        for (int q = 0; q < len; q++) {
            int i = items[from + q];
            long t = 0;
            for (int s = in.secFirst[i]; s <= in.secLast[i]; s++) {
                t = Math.max(t, total[s]);
            }
            sectionMax[q] = t;
            idx[q] = q;
        }
        IntComparator c = (a, b) -> {
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
        };
        mergeSort(idx, new int[len], 0, len, c);
        for (int r = 0; r < len; r++) {
            rank[items[from + idx[r]]] = r;
        }
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

    /** A comparator of ints without boxing. */
    interface IntComparator {
        int compare(int a, int b);
    }

    private static void mergeSort(int[] a, int[] tmp, int lo, int hi, IntComparator c) {
        if (hi - lo < 12) {
            for (int i = lo + 1; i < hi; i++) {
                int x = a[i];
                int q = i - 1;
                while (q >= lo && c.compare(a[q], x) > 0) {
                    a[q + 1] = a[q];
                    q--;
                }
                a[q + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid, c);
        mergeSort(a, tmp, mid, hi, c);
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
            tmp[k++] = c.compare(a[j], a[i]) < 0 ? a[j++] : a[i++];
        }
        while (i < mid) {
            tmp[k++] = a[i++];
        }
        while (j < hi) {
            tmp[k++] = a[j++];
        }
        System.arraycopy(tmp, lo, a, lo, hi - lo);
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
