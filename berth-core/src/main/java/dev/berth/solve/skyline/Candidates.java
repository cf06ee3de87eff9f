package dev.berth.solve.skyline;

import dev.berth.arith.Checked;

/**
 * The candidate offset of each dive item in the current dive ({@code key}), and where its lift
 * over its obstacles has got to. Candidates only rise within a dive, so the obstacles below an
 * item's candidate are skipped once ({@code obstacleNext}).
 */
final class Candidates {
    /** The candidate offset of each dive item. */
    final long[] key;
    /** Per dive item, the first of its obstacles not yet below its candidate. */
    private final int[] obstacleNext;
    private final long[] size;
    private final long[] align;
    private ObstacleLists obstacles;

    Candidates(DiveItems d, ObstacleLists obstacles) {
        key = new long[d.m];
        obstacleNext = new int[d.m];
        size = d.size;
        align = d.align;
        this.obstacles = obstacles;
    }

    /** The obstacles of the next dive. */
    void use(ObstacleLists o) {
        obstacles = o;
    }

    /** Item {@code k} starts its dive below all of its obstacles. */
    void restart(int k) {
        obstacleNext[k] = obstacles.from[k];
    }

    /**
     * The lowest aligned offset from {@code at} up where dive item {@code k} touches none of its
     * obstacles. Within a dive the callers never ask below the item's last answer (its key).
     */
    long lift(int k, long at) {
        ObstacleLists o = obstacles;
        long[] os = o.start;
        long[] oe = o.end;
        int q = obstacleNext[k];
        int to = o.to[k];
        long cand = at;
        long sz = size[k];
        while (q < to) {
            if (oe[q] <= cand) {
                q++;
                continue;
            }
            if (os[q] >= Checked.saturatingAdd(cand, sz)) {
                break;
            }
            cand = Checked.saturatingAlignUp(oe[q], align[k]);
            q++;
        }
        obstacleNext[k] = q;
        return cand;
    }
}
