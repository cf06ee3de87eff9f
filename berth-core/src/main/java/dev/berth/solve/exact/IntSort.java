package dev.berth.solve.exact;

/** A stable merge sort of ints by a comparator, without boxing. */
final class IntSort {
    private IntSort() {
    }

    /** A comparator of ints without boxing. */
    interface IntComparator {
        int compare(int a, int b);
    }

    static void sort(int[] a, IntComparator c) {
        sort(a, 0, a.length, c);
    }

    /** Sorts {@code a[lo, hi)}, stable. */
    static void sort(int[] a, int lo, int hi, IntComparator c) {
        if (hi - lo > 1) {
            mergeSort(a, new int[hi], lo, hi, c);
        }
    }

    /** Sorts {@code a[lo, hi)}, stable, with {@code tmp} (at least {@code hi} long) as scratch. */
    static void sort(int[] a, int lo, int hi, int[] tmp, IntComparator c) {
        if (hi - lo > 1) {
            mergeSort(a, tmp, lo, hi, c);
        }
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
        if (c.compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
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
}
