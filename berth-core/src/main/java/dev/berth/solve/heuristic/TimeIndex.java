package dev.berth.solve.heuristic;

import dev.berth.solve.SpaceProblem;

import java.util.Arrays;

/**
 * Finds the placed items that share a step with a query item, without scanning all of them.
 *
 * <p>Steps are compressed to ranks. Ranks are cut into blocks at several levels: level 0 has
 * blocks of 64 ranks, each next level blocks eight times wider. An item is listed at the finest
 * level where its lifetime touches at most two blocks, in those one or two blocks. A query
 * scans, at every level that holds items, the blocks its own lifetime touches, and reports each
 * item once (at the first of its blocks inside the scanned range). So an item is looked at only
 * by queries that come within one block of it at its own scale: short-lived tensors (most of a
 * graph) stay cheap, and a long-lived query does not rescan long-lived items block after block.
 * Entries hold the steps and byte range of the item, so a query reads blocks sequentially and
 * never the items' own arrays. All room is laid out at construction: nothing is allocated while
 * items are added.
 *
 * <p>Items are named by their <em>position</em> in the order the caller will add them (given at
 * construction), and the index keeps what it needs of each item in arrays by position: a caller
 * that adds items in that order reads them sequentially, not scattered over the problem's arrays
 * (at a million items, the cache misses of scattered reads cost more than the search itself).
 */
public final class TimeIndex {
    private static final int BASE_SHIFT = 6;
    private static final int LEVEL_SHIFT = 3;
    /** Marks the entry of an item in its second block: the sign bit, as steps take 31 bits each. */
    private static final long CONTINUED = Long.MIN_VALUE;

    /** By position: the item's first step << 32 | its last step. */
    private final long[] steps;
    private final int[] rankFirst;
    private final int[] rankLast;
    private final byte[] level;
    private final int levels;
    /** Index of each level's block 0 among all blocks. */
    private final int[] levelBase;
    /**
     * Where each block's entries start: room for all the entries the block will get, in two
     * arrays. A query scans {@link #entrySteps} (first step << 32 | last step, with
     * {@link #CONTINUED}) and reads {@link #entryRanges} (start, end) only for the items that share
     * a step with it: most of what it scans is the smaller array.
     */
    private final int[] blockStart;
    /** How many entries each block holds so far. */
    private final int[] blockFill;
    private final long[] entrySteps;
    private final long[] entryRanges;
    /** One bit per block: set once the block holds an entry (a small array that stays in cache). */
    private final long[] filled;
    private final int[] levelCount;

    /**
     * Lays out room for every item of positive size: all of them may be listed, and nothing is
     * allocated afterwards. {@code order[k]} is the item at position {@code k}; every item of
     * {@code p} appears once.
     */
    public TimeIndex(SpaceProblem p, int[] order) {
        int n = p.size();
        if (order.length != n) {
            throw new IllegalArgumentException("order of " + order.length + " items for " + n);
        }
        steps = new long[n];
        // by position: whether the item has bytes (items of no bytes are never listed)
        boolean[] sized = new boolean[n];
        rankFirst = new int[n];
        rankLast = new int[n];
        level = new byte[n];
        int maxStep = 0;
        for (int k = 0; k < n; k++) {
            int i = order[k];
            steps[k] = ((long) p.first(i) << 32) | p.last(i);
            sized[k] = p.reserved(i) > 0;
            maxStep = Math.max(maxStep, p.last(i));
        }
        int u = maxStep <= 4L * n ? ranksByCounting(maxStep) : ranksBySorting();
        int top = 0;
        while (top < 8 && ((Math.max(u, 1) - 1) >> shift(top)) > 1) {
            top++;
        }
        levels = top + 1;
        levelBase = new int[levels + 1];
        for (int l = 0; l < levels; l++) {
            levelBase[l + 1] = levelBase[l] + ((Math.max(u, 1) - 1) >> shift(l)) + 1;
        }
        int[] count = new int[levelBase[levels] + 1];
        for (int i = 0; i < n; i++) {
            int rf = rankFirst[i];
            int rl = rankLast[i];
            int l = 0;
            while (l < top && (rl >> shift(l)) - (rf >> shift(l)) > 1) {
                l++;
            }
            level[i] = (byte) l;
            if (sized[i]) {
                for (int b = rf >> shift(l), e = rl >> shift(l); b <= e; b++) {
                    count[levelBase[l] + b + 1]++;
                }
            }
        }
        // block g gets count[g + 1] entries
        int blocksTotal = levelBase[levels];
        blockStart = new int[blocksTotal + 1];
        blockFill = new int[blocksTotal];
        long slots = 0;
        for (int g = 0; g < blocksTotal; g++) {
            blockStart[g] = Math.toIntExact(slots);
            slots += count[g + 1];
        }
        blockStart[blocksTotal] = Math.toIntExact(slots);
        entrySteps = new long[Math.toIntExact(slots)];
        entryRanges = new long[Math.toIntExact(2 * slots)];
        filled = new long[(blocksTotal >> 6) + 1];
        levelCount = new int[levels];
    }

    /**
     * Ranks when the steps are few (at most 4 per item): mark the used steps, number them in one
     * pass. Returns the number of distinct steps.
     */
    private int ranksByCounting(int maxStep) {
        int[] rank = new int[maxStep + 1];
        // both halves of a packed step pair are steps, at most 2^31-1: the casts are exact
        for (long st : steps) {
            rank[(int) (st >>> 32)] = 1;
            rank[(int) (st & 0xFFFF_FFFFL)] = 1;
        }
        int u = 0;
        for (int s = 0; s <= maxStep; s++) {
            int used = rank[s];
            rank[s] = u;
            u += used;
        }
        for (int k = 0; k < steps.length; k++) {
            rankFirst[k] = rank[(int) (steps[k] >>> 32)];
            rankLast[k] = rank[(int) (steps[k] & 0xFFFF_FFFFL)];
        }
        return u;
    }

    /** Ranks in general: sort the (step, end point) keys once, number the distinct steps in order. */
    private int ranksBySorting() {
        int n = steps.length;
        long[] points = new long[2 * n];
        for (int k = 0; k < n; k++) {
            points[2 * k] = (steps[k] & ~0xFFFF_FFFFL) | (2L * k);
            points[2 * k + 1] = (steps[k] << 32) | (2L * k + 1);
        }
        Arrays.sort(points);
        int u = 0;
        long previous = -1;
        for (long point : points) {
            long step = point >>> 32;
            if (step != previous) {
                u++;
                previous = step;
            }
            // 2k or 2k + 1, below 2^32: read as unsigned below (>>> 1)
            int endPoint = (int) (point & 0xFFFF_FFFFL);
            if ((endPoint & 1) == 0) {
                rankFirst[endPoint >>> 1] = u - 1;
            } else {
                rankLast[endPoint >>> 1] = u - 1;
            }
        }
        return u;
    }

    /** By position: the item's first step {@code << 32 |} its last step (the array itself, not a copy). */
    public long[] steps() {
        return steps;
    }

    private static int shift(int level) {
        return BASE_SHIFT + LEVEL_SHIFT * level;
    }

    /**
     * Lists the item at {@code position} placed at {@code [start, end)}; items of no bytes block
     * nothing and are not listed.
     */
    public void add(int position, long start, long end) {
        if (end <= start) {
            return;
        }
        int l = level[position];
        int s = shift(l);
        levelCount[l]++;
        long itemSteps = steps[position];
        for (int b0 = rankFirst[position] >> s, b = b0, e = rankLast[position] >> s; b <= e; b++) {
            int g = levelBase[l] + b;
            filled[g >> 6] |= 1L << g;
            int at = blockStart[g] + blockFill[g]++;
            assert at < blockStart[g + 1] : "block overflow";
            entrySteps[at] = b == b0 ? itemSteps : itemSteps | CONTINUED;
            entryRanges[2 * at] = start;
            entryRanges[2 * at + 1] = end;
        }
    }

    /**
     * Writes the byte ranges {@code [starts[k], ends[k])} of the listed items live at a step
     * shared with the item at position {@code item}; returns how many.
     */
    public int overlapping(int position, long[] starts, long[] ends) {
        int k = 0;
        long f = steps[position] >>> 32;
        long l = steps[position] & 0xFFFF_FFFFL;
        int qf = rankFirst[position];
        int ql = rankLast[position];
        long[] es = entrySteps;
        long[] er = entryRanges;
        for (int lv = 0; lv < levels; lv++) {
            if (levelCount[lv] == 0) {
                continue;
            }
            int s = shift(lv);
            int firstBlock = qf >> s;
            for (int b = firstBlock, e = ql >> s; b <= e; b++) {
                int g = levelBase[lv] + b;
                if ((filled[g >> 6] & (1L << g)) == 0) {
                    continue;
                }
                for (int q = blockStart[g], end = q + blockFill[g]; q < end; q++) {
                    long steps = es[q];
                    long jf = (steps & ~CONTINUED) >>> 32;
                    long jl = steps & 0xFFFF_FFFFL;
                    // an item listed in two blocks is reported at the first of them inside the scan
                    if (jf <= l && f <= jl && (b == firstBlock || (steps & CONTINUED) == 0)) {
                        starts[k] = er[2 * q];
                        ends[k] = er[2 * q + 1];
                        k++;
                    }
                }
            }
        }
        return k;
    }
}
