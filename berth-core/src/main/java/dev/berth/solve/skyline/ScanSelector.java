package dev.berth.solve.skyline;

/**
 * The next item by a scan of the unplaced ones: cheaper than a heap when items share steps
 * with a large fraction of the others (every placement then changes many candidates).
 */
final class ScanSelector implements Selector {
    private final long[] key;
    /** The unplaced items at {@code 0..left-1}, in no particular order. */
    private final int[] unplaced;
    private int left;
    private double[] priority = new double[0];

    ScanSelector(Candidates candidates, int capacity) {
        key = candidates.key;
        unplaced = new int[capacity];
    }

    @Override
    public void start(int[] active, int count, double[] priority) {
        System.arraycopy(active, 0, unplaced, 0, count);
        left = count;
        this.priority = priority;
    }

    @Override
    public int next() {
        int[] pool = unplaced;
        long[] key = this.key;
        double[] prio = priority;
        int bi = 0;
        int best = pool[0];
        long bk = key[best];
        for (int q = 1; q < left; q++) {
            int x = pool[q];
            long kx = key[x];
            if (kx < bk || kx == bk && (prio[x] > prio[best] || prio[x] == prio[best] && x < best)) {
                best = x;
                bk = kx;
                bi = q;
            }
        }
        pool[bi] = pool[--left];
        return best;
    }
}
