package dev.berth.solve;

import java.util.Arrays;

/**
 * Finds the placed items that share a step with a query item, without scanning all of them.
 * Steps are compressed to ranks, ranks are grouped in blocks, and each placed item is listed
 * in every block its lifetime touches. With short lifetimes (most tensors of a graph) a query
 * looks at a few dozen items. Allocation happens only when a block grows.
 */
final class TimeIndex {
    private static final int RANKS_PER_BLOCK = 16;
    private final SpaceProblem p;
    private final int[] rankFirst;
    private final int[] rankLast;
    private final int[][] blocks;
    private final int[] blockLen;
    private final int[] stamp;
    private int stampValue;

    TimeIndex(SpaceProblem p) {
        this.p = p;
        int n = p.size();
        int[] steps = new int[2 * n];
        for (int i = 0; i < n; i++) {
            steps[2 * i] = p.first(i);
            steps[2 * i + 1] = p.last(i);
        }
        Arrays.sort(steps);
        int u = 0;
        for (int k = 0; k < steps.length; k++) {
            if (k == 0 || steps[k] != steps[k - 1]) {
                steps[u++] = steps[k];
            }
        }
        rankFirst = new int[n];
        rankLast = new int[n];
        for (int i = 0; i < n; i++) {
            rankFirst[i] = Arrays.binarySearch(steps, 0, u, p.first(i));
            rankLast[i] = Arrays.binarySearch(steps, 0, u, p.last(i));
        }
        int nBlocks = Math.max(1, (u + RANKS_PER_BLOCK - 1) / RANKS_PER_BLOCK);
        blocks = new int[nBlocks][];
        blockLen = new int[nBlocks];
        stamp = new int[n];
    }

    void add(int item) {
        for (int b = rankFirst[item] / RANKS_PER_BLOCK, e = rankLast[item] / RANKS_PER_BLOCK; b <= e; b++) {
            int[] blk = blocks[b];
            if (blk == null) {
                blk = blocks[b] = new int[8];
            } else if (blockLen[b] == blk.length) {
                blk = blocks[b] = Arrays.copyOf(blk, blk.length * 2);
            }
            blk[blockLen[b]++] = item;
        }
    }

    /** Writes the placed items live at a step shared with {@code item} into {@code out}; returns how many. */
    int overlapping(int item, int[] out) {
        int v = ++stampValue;
        if (v == Integer.MAX_VALUE) {
            Arrays.fill(stamp, 0);
            stampValue = v = 1;
        }
        int k = 0;
        int f = p.first(item);
        int l = p.last(item);
        for (int b = rankFirst[item] / RANKS_PER_BLOCK, e = rankLast[item] / RANKS_PER_BLOCK; b <= e; b++) {
            int[] blk = blocks[b];
            for (int q = 0, len = blockLen[b]; q < len; q++) {
                int j = blk[q];
                if (stamp[j] != v) {
                    stamp[j] = v;
                    if (p.first(j) <= l && f <= p.last(j)) {
                        out[k++] = j;
                    }
                }
            }
        }
        return k;
    }
}
