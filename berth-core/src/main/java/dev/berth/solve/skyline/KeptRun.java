package dev.berth.solve.skyline;

import dev.berth.arith.Checked;

import java.util.Arrays;

/**
 * What a kept run needs: some dive items are freed and re-placed, every other one stays where it
 * is. Each freed item gets as obstacles the kept items and fixed items it shares a step with
 * (sorted, touching ones merged), and as conflicts the freed items it shares a step with;
 * nothing else is rebuilt. Built from the full {@link ConflictLists}.
 */
final class KeptRun {
    final ObstacleLists obstacles;
    final ConflictLists conflicts;
    /** {@code freed[k] == epoch}: dive item k is freed in the current run. */
    private final int[] freed;
    private int epoch;

    KeptRun(int m) {
        obstacles = new ObstacleLists(m);
        conflicts = new ConflictLists(m);
        freed = new int[m];
    }

    /**
     * Frees the items {@code active[0..count)}; every other dive item stays at {@code at[k]}.
     */
    void build(DiveItems d, ConflictLists all, int[] active, int count, long[] at) {
        if (++epoch == Integer.MAX_VALUE) {
            Arrays.fill(freed, 0);
            epoch = 1;
        }
        int total = 0;
        for (int q = 0; q < count; q++) {
            int k = active[q];
            freed[k] = epoch;
            total += all.count(k);
        }
        obstacles.ensure(total);
        conflicts.ensure(total);
        int m = d.m;
        int[] list = all.list;
        int[] among = conflicts.list;
        int t = 0;
        int u = 0;
        for (int q = 0; q < count; q++) {
            int k = active[q];
            int from = t;
            conflicts.from[k] = u;
            for (int c = all.from[k]; c < all.to[k]; c++) {
                int j = list[c];
                if (j >= m || freed[j] != epoch) {
                    long s = j >= m ? d.fixedAt[j] : at[j];
                    obstacles.start[t] = s;
                    obstacles.end[t++] = Checked.saturatingAdd(s, d.size[j]);
                } else {
                    among[u++] = j;
                }
            }
            conflicts.to[k] = u;
            t = obstacles.sortAndMerge(k, from, t);
        }
    }
}
