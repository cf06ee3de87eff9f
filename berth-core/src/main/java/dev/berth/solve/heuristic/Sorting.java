package dev.berth.solve.heuristic;

import java.util.Arrays;

/** Allocation-free sorting of parallel primitive arrays. */
public final class Sorting {
    private Sorting() {
    }

    /** Sorts {@code keys[0..n)} ascending, moving {@code vals} along. */
    public static void sortByKey(long[] keys, long[] vals, int n) {
        quick(keys, vals, 0, n - 1);
    }

    /** Sorts {@code keys[from..to)} ascending, moving {@code vals} along. */
    public static void sortByKey(long[] keys, long[] vals, int from, int to) {
        quick(keys, vals, from, to - 1);
    }

    private static void quick(long[] k, long[] v, int lo, int hi) {
        while (hi - lo > 16) {
            long pivot = median(k[lo], k[(lo + hi) >>> 1], k[hi]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (k[i] < pivot) {
                    i++;
                }
                while (k[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(k, v, i++, j--);
                }
            }
            if (j - lo < hi - i) {
                quick(k, v, lo, j);
                lo = i;
            } else {
                quick(k, v, i, hi);
                hi = j;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            long kk = k[i];
            long vv = v[i];
            int j = i - 1;
            while (j >= lo && k[j] > kk) {
                k[j + 1] = k[j];
                v[j + 1] = v[j];
                j--;
            }
            k[j + 1] = kk;
            v[j + 1] = vv;
        }
    }

    private static long median(long a, long b, long c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    private static void swap(long[] k, long[] v, int i, int j) {
        long t = k[i];
        k[i] = k[j];
        k[j] = t;
        t = v[i];
        v[i] = v[j];
        v[j] = t;
    }

    /**
     * Sorts the items {@code a} by decreasing {@code primary}, then decreasing {@code secondary},
     * then increasing item: a stable merge sort without boxing.
     */
    static void sortDescending(int[] a, long[] primary, long[] secondary) {
        int n = a.length;
        long maxPrimary = 0;
        long maxSecondary = 0;
        long minBoth = 0;
        int maxItem = 0;
        for (int x : a) {
            maxPrimary = Math.max(maxPrimary, primary[x]);
            maxSecondary = Math.max(maxSecondary, secondary[x]);
            minBoth = Math.min(minBoth, Math.min(primary[x], secondary[x]));
            maxItem = Math.max(maxItem, x);
        }
        int idBits = bits(maxItem);
        int secondaryBits = bits(maxSecondary);
        if (n > 64 && minBoth >= 0 && idBits + secondaryBits + bits(maxPrimary) <= 63) {
            // one primitive sort of packed keys: (max - primary), (max - secondary), item
            long[] key = new long[n];
            for (int q = 0; q < n; q++) {
                int x = a[q];
                key[q] = ((maxPrimary - primary[x]) << (secondaryBits + idBits))
                        | ((maxSecondary - secondary[x]) << idBits) | x;
            }
            Arrays.sort(key);
            long mask = (1L << idBits) - 1;
            for (int q = 0; q < n; q++) {
                a[q] = (int) (key[q] & mask); // an item, at most maxItem
            }
            return;
        }
        int[] tmp = new int[n];
        mergeSort(a, tmp, 0, n, primary, secondary);
    }

    /** The bits needed to write {@code v} (at least one). */
    private static int bits(long v) {
        return Math.max(1, 64 - Long.numberOfLeadingZeros(v));
    }

    private static boolean before(int x, int y, long[] primary, long[] secondary) {
        if (primary[x] != primary[y]) {
            return primary[x] > primary[y];
        }
        if (secondary[x] != secondary[y]) {
            return secondary[x] > secondary[y];
        }
        return x < y;
    }

    private static void mergeSort(int[] a, int[] tmp, int lo, int hi, long[] primary, long[] secondary) {
        if (hi - lo <= 16) {
            for (int i = lo + 1; i < hi; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= lo && before(x, a[j], primary, secondary)) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (lo + hi) >>> 1;
        mergeSort(a, tmp, lo, mid, primary, secondary);
        mergeSort(a, tmp, mid, hi, primary, secondary);
        if (!before(a[mid], a[mid - 1], primary, secondary)) {
            return;
        }
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
            tmp[k++] = before(a[j], a[i], primary, secondary) ? a[j++] : a[i++];
        }
        while (i < mid) {
            tmp[k++] = a[i++];
        }
        while (j < hi) {
            tmp[k++] = a[j++];
        }
        System.arraycopy(tmp, lo, a, lo, hi - lo);
    }
}
