package dev.berth.solve.exact;

import dev.berth.arith.Checked;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * One depth-first search over canonical placements of an {@link Instance}, with one order of
 * the items (their {@code rank}; sub-problems re-rank their items when dynamic ranks are on).
 * It can be resumed with a larger node limit (a restart): what it learned stays.
 *
 * <h2>What it searches</h2>
 * Call a placement <em>settled</em> when no item can move to a lower free aligned offset
 * (fixed items never move). Every feasible instance has a settled solution: moving items down
 * one at a time only lowers offsets, so it ends, and it keeps every end within the limit.
 * Listing a settled solution's items by (offset, rank) gives a sequence in which each item sits
 * at its <em>floor</em>: the lowest aligned offset above the items listed before it that share a
 * step with it ({@code m[k]} below, which starts at 0, or at the fixed offset of a fixed item).
 * The search builds exactly such sequences: at each node it places one unplaced item at its
 * floor, never at a lower (offset, rank) than the previous one. Prunings only cut branches that
 * cannot lead to a settled solution or to any solution:
 * <ul>
 *   <li><b>dominance</b>: an item placed at or above the top of another unplaced item's floor
 *       leaves that item a hole it would settle into: never settled;</li>
 *   <li><b>no-effect</b>: when placing item j raised no other unplaced item's floor and the
 *       subtree failed, the later alternatives would put j higher with nothing in the way of
 *       moving it back down: never settled, so the node fails;</li>
 *   <li><b>section bound</b>: the unplaced items of a section are stacked above the lowest floor
 *       among them and above the current offset: their total must fit below the limit;</li>
 *   <li><b>floors</b>: a floor above {@code limit - size}, or above a fixed item's offset, fails;</li>
 *   <li><b>twins</b>: items identical in size, alignment and steps are interchangeable, so they
 *       are placed in index order (a solution with them swapped is the same solution);</li>
 *   <li><b>decomposition</b>: when no unplaced item crosses a section boundary any more, the two
 *       sides are independent sub-problems, each solved on its own, from scratch (the items of a
 *       side only ever have to stay above their floors: the sub-problem is "place these items,
 *       each at or above its floor"), and each failure is remembered ({@link FailureMemo}):
 *       a later sub-problem over the same items with floors at least as high fails at once;</li>
 *   <li><b>failed states</b>: a node whose whole subtree failed is remembered by a hash of its
 *       state ({@link FailedStates}); meeting the same state again fails at once.</li>
 * </ul>
 *
 * <p>The state (floors, placed items, section totals and counts, crossing counts) is updated
 * in place and restored from a trail on backtracking. Sizes and offsets never exceed {@code limit}: a
 * floor above {@code limit - size} fails before it is stored, so {@code m[k] + size[k]} never
 * overflows.
 */
final class CanonicalSearch {
    static final int FAILED = 0;
    static final int SOLVED = 1;
    /** The node limit of this attempt ran out. */
    static final int ABORTED = 2;
    /** The budget ran out or the search was cancelled. */
    static final int STOPPED = 3;

    private final Instance in;
    private final int[] rank;
    /** The ranks over all the items with nothing placed (shared with the other searches: read only). */
    private final int[] rootRank;
    private final String orderKeys;
    /** Whether sub-problems re-rank their items with the section totals of the moment. */
    private final boolean dynamicRanks;
    private final FailureMemo memo;
    private final FailedStates failedStates;
    /** Random keys of the items, two families, for the hashes of states. */
    private final long[] key1;
    private final long[] key2;
    /** Hash of the order in force: the strategy, then the sub-problem whose ranks are in use. */
    private long context;
    /** Subtrees smaller than this are not worth a table entry. */
    private static final long REMEMBER_FROM = 4;
    private final BooleanSupplier stop;
    private final long limit;
    private long nodeLimit;
    private long nodes;
    /**
     * Work done (items and sections visited, about a nanosecond each) and the amount at which
     * the stop condition is polled next: a node can cost far more than a microsecond on a large
     * instance, so polling every 1024 nodes alone could overrun a time limit by minutes.
     */
    private long work;
    private long nextPoll = POLL_WORK;
    private static final long POLL_WORK = Work.CHUNK;

    /** Floor of each unplaced item: the lowest offset it can take. */
    final long[] m;
    final boolean[] placed;
    final long[] offset;
    /** Sum of unplaced sizes per section. */
    private final long[] total;
    /** Number of unplaced items per section. */
    private final int[] count;
    private final int[] cut;

    // the unplaced items, as segments of one permutation (a "sparse set"): pos[k] is k's index
    private final int[] pool;
    private final int[] pos;

    // trail of changed floors
    private long[] trailOld = new long[256];
    private int[] trailWhere = new int[256];
    private int trailTop;
    private final int[] placedStack;
    private int placedTop;

    // candidates of the nodes on the current path
    private int[] candStack = new int[256];
    private int candTop;
    private int[] sortScratch = new int[0];

    CanonicalSearch(Instance in, String orderKeys, boolean dynamicRanks, FailureMemo memo, FailedStates failedStates,
                    BooleanSupplier stop) {
        this.in = in;
        this.failedStates = failedStates;
        SplittableRandom keys = new SplittableRandom(0xB0E7_5EEDL);
        key1 = new long[in.n];
        key2 = new long[in.n];
        for (int i = 0; i < in.n; i++) {
            key1[i] = keys.nextLong();
            key2[i] = keys.nextLong();
        }
        context = FailedStates.mix(orderKeys.hashCode() * 0x9E3779B97F4A7C15L + (dynamicRanks ? 1 : 2));
        this.dynamicRanks = dynamicRanks;
        this.orderKeys = orderKeys;
        this.rootRank = in.ranks(orderKeys);
        this.rank = rootRank.clone();
        this.memo = memo;
        this.stop = stop;
        this.limit = in.limit;
        int n = in.n;
        m = new long[n];
        placed = new boolean[n];
        offset = new long[n];
        for (int i = 0; i < n; i++) {
            m[i] = in.fixedAt[i] >= 0 ? in.fixedAt[i] : 0;
        }
        total = in.sectionTotal.clone();
        count = new int[in.sections];
        for (int s = 0; s < in.sections; s++) {
            count[s] = in.memberStart[s + 1] - in.memberStart[s];
        }
        cut = in.crossing.clone();
        pool = new int[n];
        pos = new int[n];
        for (int i = 0; i < n; i++) {
            pool[i] = i;
            pos[i] = i;
        }
        placedStack = new int[n];
    }

    long nodes() {
        return nodes;
    }

    /** The number of items of the instance (the deepest the search can recurse). */
    int items() {
        return in.n;
    }

    /** Sub-problems started, and those proved infeasible. */
    /**
     * Solves the whole instance with at most {@code limitNodes} more nodes. On {@link #SOLVED}
     * {@link #offset} holds the solution; otherwise the state is as it was.
     */
    int solve(long limitNodes) {
        nodeLimit = nodes + limitNodes;
        int n = in.n;
        if (n == 0) {
            return SOLVED;
        }
        // static components: runs of items connected by shared steps
        int mark = trailTop;
        int pmark = placedTop;
        order(0, n);
        for (int start = 0; start < n; ) {
            int e = runEnd(start, n);
            int hi = 0;
            for (int q = start; q < e; q++) {
                hi = Math.max(hi, in.secLast[pool[q]]);
            }
            int r = part(start, e - start, in.secFirst[pool[start]], hi);
            if (r != SOLVED) {
                undo(mark, pmark);
                return r;
            }
            start = e;
        }
        return SOLVED;
    }

    /** Sorts pool[from, from+len) by first section (then item), keeping pos in step. */
    private void order(int from, int len) {
        long[] key = new long[len];
        for (int q = 0; q < len; q++) {
            int k = pool[from + q];
            key[q] = ((long) in.secFirst[k] << 32) | k;
        }
        Arrays.sort(key);
        for (int q = 0; q < len; q++) {
            int k = (int) (key[q] & 0xFFFF_FFFFL); // an item, packed from an int
            pool[from + q] = k;
            pos[k] = from + q;
        }
    }

    /** A fresh sub-problem: the unplaced items pool[from, from+len), in sections lo..hi. */
    private int part(int from, int len, int lo, int hi) {
        if (memo != null && memo.knownInfeasible(pool, from, len, m)) {
            return FAILED;
        }
        int[] savedItems = null;
        int[] savedRanks = null;
        long savedContext = context;
        if (dynamicRanks) {
            long set = 0;
            for (int q = from; q < from + len; q++) {
                set ^= key1[pool[q]];
            }
            context = FailedStates.mix(savedContext ^ set);
            savedItems = Arrays.copyOfRange(pool, from, from + len);
            savedRanks = new int[len];
            for (int q = 0; q < len; q++) {
                savedRanks[q] = rank[savedItems[q]];
            }
            if (len == in.n) {
                // every item, nothing placed: the totals are the instance's, so are the ranks
                System.arraycopy(rootRank, 0, rank, 0, len);
            } else {
                ItemOrder.rankPart(in, orderKeys, total, pool, from, len, rank);
            }
        }
        int r = dfs(from, len, lo, hi, -1, -1);
        if (savedItems != null) {
            // the caller's order holds again
            for (int q = 0; q < len; q++) {
                rank[savedItems[q]] = savedRanks[q];
            }
            context = savedContext;
        }
        if (r == FAILED && memo != null) {
            memo.recordInfeasible(pool, from, len, m);
        }
        return r;
    }

    private int dfs(int from, int len, int lo, int hi, long floorOffset, int lastRank) {
        if (len == 0) {
            return SOLVED;
        }
        if (++nodes > nodeLimit) {
            return ABORTED;
        }
        work += len + (hi - lo + 1);
        if (((nodes & 1023) == 1 || work >= nextPoll) && shouldStop()) {
            return STOPPED;
        }
        final int end = from + len;
        long minTop = Long.MAX_VALUE;
        long h1 = context ^ FailedStates.mix(floorOffset * 0x9E3779B97F4A7C15L + lastRank);
        long h2 = FailedStates.mix(context + floorOffset) ^ lastRank * 0xC2B2AE3D27D4EB4FL;
        for (int q = from; q < end; q++) {
            int k = pool[q];
            minTop = Math.min(minTop, Checked.add(m[k], in.size[k]));
            h1 += FailedStates.mix(key1[k] ^ m[k]);
            h2 += FailedStates.mix(key2[k] + m[k]);
        }
        if (failedStates != null && failedStates.contains(h1, h2)) {
            return FAILED;
        }
        long nodesAtEntry = nodes;
        int cBase = candTop;
        for (int q = from; q < end; q++) {
            int k = pool[q];
            long mk = m[k];
            boolean later = mk > floorOffset || (mk == floorOffset && rank[k] > lastRank);
            if (later) {
                int t = in.twin[k];
                if (mk < minTop && (t < 0 || placed[t])) {
                    pushCandidate(k);
                }
            } else if (in.fixedAt[k] >= 0) {
                // a fixed item below the current offset can no longer be placed in order
                candTop = cBase;
                return FAILED;
            }
        }
        int cEnd = candTop;
        sortCandidates(cBase, cEnd);
        // every section still holding two or more items keeps one above the next offset:
        // offsets above limit - (its total) fail
        long heaviest = 0;
        for (int s = lo; s <= hi; s++) {
            if (count[s] >= 2 && total[s] > heaviest) {
                heaviest = total[s];
            }
        }
        long highest = Checked.subtract(limit, heaviest);
        int result = FAILED;
        for (int c = cBase; c < cEnd; c++) {
            int j = candStack[c];
            if (m[j] > highest) {
                break;
            }
            if (work >= nextPoll && shouldStop()) {
                result = STOPPED;
                break;
            }
            int mark = trailTop;
            int pmark = placedTop;
            long at = m[j];
            int effect = place(j, from, len, lo, hi);
            int r = FAILED;
            if ((effect & OK) != 0) {
                // j was swapped to the end of the segment: the rest is [from, end - 1)
                r = (effect & SPLIT) != 0 ? split(from, len - 1, at, j)
                        : dfs(from, len - 1, lo, hi, at, rank[j]);
            }
            if (r == SOLVED) {
                result = SOLVED;
                break;
            }
            undo(mark, pmark);
            if (r != FAILED) {
                result = r;
                break;
            }
            if ((effect & RAISED) == 0) {
                break;
            }
        }
        candTop = cBase;
        if (result == FAILED && failedStates != null && nodes - nodesAtEntry >= REMEMBER_FROM) {
            failedStates.add(h1, h2);
        }
        return result;
    }

    /** Polls the stop condition (and schedules the next poll). */
    private boolean shouldStop() {
        nextPoll = work + POLL_WORK;
        return stop.getAsBoolean();
    }

    private static final int OK = 1;
    private static final int RAISED = 2;
    private static final int SPLIT = 4;

    /**
     * Places j at its floor: removes it from the segment, raises the floors of the unplaced items
     * it overlaps, updates the sections, and checks the bounds over sections lo..hi. Returns
     * {@link #OK} when nothing failed, with {@link #RAISED} when some floor rose and {@link #SPLIT}
     * when a boundary inside j's lifetime is no longer crossed.
     */
    private int place(int j, int from, int len, int lo, int hi) {
        long at = m[j];
        long size = in.size[j];
        long top = Checked.add(at, size); // at <= limit - size
        // remove from the segment: swap with the last element
        int last = from + len - 1;
        int pj = pos[j];
        int other = pool[last];
        pool[pj] = other;
        pos[other] = pj;
        pool[last] = j;
        pos[j] = last;
        placed[j] = true;
        offset[j] = at;
        placedStack[placedTop++] = j;
        int sf = in.secFirst[j];
        int sl = in.secLast[j];
        int effect = 0;
        for (int s = sf; s <= sl; s++) {
            total[s] = Checked.subtract(total[s], size);
            count[s]--;
            if (s < sl && --cut[s] == 0) {
                effect |= SPLIT;
            }
        }
        // raise the floors of the items sharing a step with j (see Instance): the other members of
        // its first section, then the items whose first section is one of its later ones; every
        // raised item shares a section with j, so the touched sections form one range
        touchedLo = sf;
        touchedHi = sl;
        final int[] members = in.members;
        final int[] byFirst = in.byFirst;
        int aFrom = in.memberStart[sf];
        int aEnd = in.memberStart[sf + 1];
        int bFrom = in.firstStart[sf + 1];
        int bEnd = in.firstStart[sl + 1];
        work += (sl - sf + 1) + (aEnd - aFrom) + (bEnd - bFrom);
        for (int x = aFrom; x < aEnd; x++) {
            int r = raise(members[x], top);
            if (r != 0) {
                effect |= RAISED;
                if (r == RAISE_FAILED) {
                    return effect & ~OK;
                }
            }
        }
        for (int x = bFrom; x < bEnd; x++) {
            int r = raise(byFirst[x], top);
            if (r != 0) {
                effect |= RAISED;
                if (r == RAISE_FAILED) {
                    return effect & ~OK;
                }
            }
        }
        int tLo = touchedLo;
        int tHi = touchedHi;
        // lowest floors of the touched sections: the items left there stack above them
        final int[] memberStart = in.memberStart;
        for (int s = tLo; s <= tHi; s++) {
            long t = total[s];
            if (t == 0) {
                continue;
            }
            long low = Long.MAX_VALUE;
            int mEnd = memberStart[s + 1];
            work += mEnd - memberStart[s];
            for (int x = memberStart[s]; x < mEnd; x++) {
                int k = members[x];
                if (!placed[k] && m[k] < low) {
                    low = m[k];
                }
            }
            if (t > Checked.subtract(limit, Math.max(low, at))) {
                return effect & ~OK;
            }
        }
        return effect | OK;
    }

    private static final int RAISED_ONLY = 1;
    private static final int RAISE_FAILED = 2;
    /** The range of sections holding an item whose floor the current placement raised. */
    private int touchedLo;
    private int touchedHi;

    /**
     * Raises the floor of k (when unplaced) to {@code top} aligned up: 0 when it did not rise,
     * {@link #RAISED_ONLY}, or {@link #RAISE_FAILED} when it rose past where k can go.
     */
    private int raise(int k, long top) {
        if (placed[k]) {
            return 0;
        }
        long nm = Checked.saturatingAlignUp(top, in.align[k]);
        if (nm <= m[k]) {
            return 0;
        }
        trail(k, m[k]);
        m[k] = nm;
        long fixed = in.fixedAt[k];
        if (fixed >= 0 ? nm > fixed : nm > Checked.subtract(limit, in.size[k])) {
            return RAISE_FAILED;
        }
        touchedLo = Math.min(touchedLo, in.secFirst[k]);
        touchedHi = Math.max(touchedHi, in.secLast[k]);
        return RAISED_ONLY;
    }

    /**
     * After j (now just past the segment) left some boundary uncrossed: sorts the rest of the
     * segment pool[from, from+len) by first section and cuts it into runs of items connected by
     * shared steps. A single run goes on as the same search (canonical order kept, over its
     * narrower range of sections); several runs are independent sub-problems, each solved from
     * scratch.
     */
    private int split(int from, int len, long at, int j) {
        if (len == 0) {
            return SOLVED;
        }
        order(from, len);
        int end = from + len;
        int runs = 0;
        for (int start = from; start < end; runs++) {
            start = runEnd(start, end);
        }
        if (runs == 1) {
            int lo = in.secFirst[pool[from]];
            int hi = 0;
            for (int q = from; q < end; q++) {
                hi = Math.max(hi, in.secLast[pool[q]]);
            }
            return dfs(from, len, lo, hi, at, rank[j]);
        }
        for (int start = from; start < end; ) {
            int e = runEnd(start, end);
            int lo = in.secFirst[pool[start]];
            int hi = 0;
            for (int q = start; q < e; q++) {
                hi = Math.max(hi, in.secLast[pool[q]]);
            }
            int r = part(start, e - start, lo, hi);
            if (r != SOLVED) {
                return r;
            }
            start = e;
        }
        return SOLVED;
    }

    /** The end of the run of items starting at pool[start] (sorted by first section) that share steps. */
    private int runEnd(int start, int end) {
        int hi = in.secLast[pool[start]];
        int e = start + 1;
        while (e < end && in.secFirst[pool[e]] <= hi) {
            hi = Math.max(hi, in.secLast[pool[e]]);
            e++;
        }
        return e;
    }

    private void pushCandidate(int k) {
        if (candTop == candStack.length) {
            candStack = Arrays.copyOf(candStack, candStack.length * 2);
        }
        candStack[candTop++] = k;
    }

    /**
     * Sorts candStack[a, b) by (floor, rank). The keys are distinct (the ranks of a segment's items
     * are), so every sort gives this order: insertion for a few, a merge sort for many.
     */
    private void sortCandidates(int a, int b) {
        work += b - a;
        if (b - a > 32) {
            if (sortScratch.length < b) {
                sortScratch = new int[candStack.length];
            }
            IntSort.sort(candStack, a, b, sortScratch,
                    (x, y) -> m[x] != m[y] ? Long.compare(m[x], m[y]) : Integer.compare(rank[x], rank[y]));
            return;
        }
        for (int i = a + 1; i < b; i++) {
            int x = candStack[i];
            long mx = m[x];
            int rx = rank[x];
            int q = i - 1;
            while (q >= a && (m[candStack[q]] > mx || (m[candStack[q]] == mx && rank[candStack[q]] > rx))) {
                candStack[q + 1] = candStack[q];
                q--;
            }
            candStack[q + 1] = x;
        }
    }

    private void trail(int where, long old) {
        if (trailTop == trailOld.length) {
            trailOld = Arrays.copyOf(trailOld, trailTop * 2);
            trailWhere = Arrays.copyOf(trailWhere, trailTop * 2);
        }
        trailOld[trailTop] = old;
        trailWhere[trailTop++] = where;
    }

    private void undo(int mark, int pmark) {
        while (trailTop > mark) {
            trailTop--;
            int w = trailWhere[trailTop];
            m[w] = trailOld[trailTop];
        }
        while (placedTop > pmark) {
            int j = placedStack[--placedTop];
            placed[j] = false;
            long size = in.size[j];
            int sf = in.secFirst[j];
            int sl = in.secLast[j];
            for (int s = sf; s <= sl; s++) {
                total[s] = Checked.add(total[s], size);
                count[s]++;
                if (s < sl) {
                    cut[s]++;
                }
            }
        }
    }

}
