package dev.berth.solve;

/** Allocation-free sorting of parallel primitive arrays. */
final class Sorting {
    private Sorting() {
    }

    /** Sorts {@code keys[0..n)} ascending, moving {@code vals} along. */
    static void sortByKey(long[] keys, long[] vals, int n) {
        quick(keys, vals, 0, n - 1);
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
        for (int x : a) {
            maxPrimary = Math.max(maxPrimary, primary[x]);
        }
        int idBits = 64 - Long.numberOfLeadingZeros(Math.max(1, n));
        if (n > 64 && idBits + 64 - Long.numberOfLeadingZeros(maxPrimary) <= 63) {
            // a primitive sort of packed keys, (max - primary) then position, then the runs of equal
            // primary (rare) by the full order
            long[] key = new long[n];
            for (int q = 0; q < n; q++) {
                key[q] = ((maxPrimary - primary[a[q]]) << idBits) | q;
            }
            int[] copy = a.clone();
            java.util.Arrays.sort(key);
            long mask = (1L << idBits) - 1;
            for (int q = 0; q < n; q++) {
                a[q] = copy[(int) (key[q] & mask)];
            }
            int[] tmp = new int[n];
            for (int q = 0; q < n; ) {
                int e = q + 1;
                while (e < n && primary[a[e]] == primary[a[q]]) {
                    e++;
                }
                if (e - q > 1) {
                    mergeSort(a, tmp, q, e, primary, secondary);
                }
                q = e;
            }
            return;
        }
        int[] tmp = new int[n];
        mergeSort(a, tmp, 0, n, primary, secondary);
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
