package dev.berth.solve.skyline;

/**
 * The next item from a heap of candidate snapshots: each unplaced item with its candidate when
 * it was last sifted, a lower bound of the current one (candidates only rise). The top is
 * refreshed and sifted until its snapshot is current; then it is the next item.
 */
final class HeapSelector implements Selector {
    private final long[] key;
    private final int[] heap;
    private final long[] snapshot;
    private int size;
    private double[] priority = new double[0];

    HeapSelector(Candidates candidates, int capacity) {
        key = candidates.key;
        heap = new int[capacity];
        snapshot = new long[capacity];
    }

    @Override
    public void start(int[] active, int count, double[] priority) {
        this.priority = priority;
        size = 0;
        for (int q = 0; q < count; q++) {
            int k = active[q];
            heap[size] = k;
            snapshot[size++] = key[k];
        }
        for (int h = size / 2 - 1; h >= 0; h--) {
            sift(h);
        }
    }

    @Override
    public int next() {
        while (snapshot[0] < key[heap[0]]) {
            snapshot[0] = key[heap[0]];
            sift(0);
        }
        int best = heap[0];
        heap[0] = heap[--size];
        snapshot[0] = snapshot[size];
        if (size > 0) {
            sift(0);
        }
        return best;
    }

    /** Sift-down by snapshot, ties as in {@link Selector}. */
    private void sift(int h) {
        int[] heap = this.heap;
        long[] snap = snapshot;
        double[] prio = priority;
        int x = heap[h];
        long kx = snap[h];
        double px = prio[x];
        while (true) {
            int c = 2 * h + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && earlier(snap[c + 1], heap[c + 1], snap[c], heap[c])) {
                c++;
            }
            int y = heap[c];
            long ky = snap[c];
            if (!(ky < kx || ky == kx && (prio[y] > px || prio[y] == px && y < x))) {
                break;
            }
            heap[h] = y;
            snap[h] = ky;
            h = c;
        }
        heap[h] = x;
        snap[h] = kx;
    }

    private boolean earlier(long ka, int a, long kb, int b) {
        if (ka != kb) {
            return ka < kb;
        }
        double pa = priority[a];
        double pb = priority[b];
        if (pa != pb) {
            return pa > pb;
        }
        return a < b;
    }
}
