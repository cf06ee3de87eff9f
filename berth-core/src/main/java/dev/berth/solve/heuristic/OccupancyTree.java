package dev.berth.solve.heuristic;

import dev.berth.arith.Checked;
import dev.berth.solve.SpaceProblem;

import java.util.Arrays;

/**
 * The bytes held by the items placed so far, over time, for the heuristics' gap search: a
 * segment tree over the steps (compressed to ranks) whose nodes hold unions of byte ranges, each
 * kept as sorted, disjoint, non-touching intervals.
 *
 * <p>A gap search needs only the union of the byte ranges of the placed items that share a step
 * with the item placed (the lowest free offset and the gaps of that union are all it reads). So
 * the tree keeps unions, not items: on the instances where lifetimes are long (thousands of
 * items live at a step), a query gathers tens or hundreds of intervals instead of thousands of
 * ranges, in one sorted run per node read, and merges the runs.
 *
 * <p>Each item's lifetime splits into the tree's canonical nodes (at most two per level, whose
 * steps it spans). A node holds two unions:
 * <ul>
 *   <li>{@code cover}: the items for which the node is canonical (each spans all the node's steps);</li>
 *   <li>{@code below}: the items for which the node or a node under it is canonical, and possibly
 *       others that share a step with the node (the items whose end leaves' paths pass through it).</li>
 * </ul>
 * A query for a lifetime reads {@code below} of its canonical nodes and {@code cover} of every
 * node on the paths from its two end leaves to the root. Every range read belongs to an item
 * that shares a step with the query; and an item that shares step {@code t} with it is
 * canonical at one node on the path of leaf {@code t}: under the query's canonical node that
 * holds {@code t} (in that node's {@code below}), or above it, and then on the path of one of the
 * query's end leaves (in that node's {@code cover}). So the intervals gathered have exactly the
 * union of the ranges of the placed items that share a step with the query.
 *
 * <p>Items are named by their <em>position</em> in the order given at construction (the
 * heuristics' rank order). Public, in a package the core does not export, for the benchmark
 * module's unchecked copy of greedy.
 */
public final class OccupancyTree {
    /** By position: the item's first step {@code << 32 |} its last step. */
    private final long[] steps;
    private final int[] rankFirst;
    private final int[] rankLast;
    /** Leaves: a power of two, at least the number of distinct steps. Node 1 is the root, leaf r is node leaves + r. */
    private final int leaves;
    /** Per node: start0, end0, start1, end1, ... (null until the node holds a range). */
    private final long[][] cover;
    private final long[][] below;
    /** Per node: how many longs of {@link #cover} / {@link #below} are used (twice the intervals). */
    private final int[] coverLen;
    private final int[] belowLen;
    /**
     * Per node: whether it is canonical for some item's lifetime, so that some query reads its
     * {@link #below} (the queries are the items themselves); other nodes keep no {@code below}.
     */
    private final boolean[] read;
    /** The intervals of the last {@link #gather}, and room for merging them. */
    private long[] starts = new long[16];
    private long[] ends = new long[16];
    private long[] otherStarts = new long[16];
    private long[] otherEnds = new long[16];
    /** Where each sorted run of the last gather begins (a node's union is one run), and its end. */
    private int[] runs = new int[16];
    /** How many runs the last gather's copies left in {@link #runs}. */
    private int runCount;
    /** The unions {@link #firstFit} reads, and their lengths in intervals. */
    private long[][] sets = new long[16][];
    private int[] setPairs = new int[16];

    /** {@code order[k]} is the item at position {@code k}; every item of {@code p} appears once. */
    public OccupancyTree(SpaceProblem p, int[] order) {
        int n = p.size();
        if (order.length != n) {
            throw new IllegalArgumentException("order of " + order.length + " items for " + n);
        }
        steps = new long[n];
        int maxStep = 0;
        for (int k = 0; k < n; k++) {
            int i = order[k];
            steps[k] = ((long) p.first(i) << 32) | p.last(i);
            maxStep = Math.max(maxStep, p.last(i));
        }
        rankFirst = new int[n];
        rankLast = new int[n];
        int u = maxStep <= 4L * n ? ranksByCounting(maxStep) : ranksBySorting();
        int l = 1;
        while (l < u) {
            l <<= 1;
        }
        leaves = l;
        cover = new long[2 * l][];
        below = new long[2 * l][];
        coverLen = new int[2 * l];
        belowLen = new int[2 * l];
        read = new boolean[2 * l];
        for (int k = 0; k < n; k++) {
            for (int lo = l + rankFirst[k], hi = l + rankLast[k] + 1; lo < hi; lo >>= 1, hi >>= 1) {
                if ((lo & 1) != 0) {
                    read[lo++] = true;
                }
                if ((hi & 1) != 0) {
                    read[--hi] = true;
                }
            }
        }
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

    /** Records the item at {@code position} placed at {@code [start, end)}; an empty range holds nothing. */
    public void add(int position, long start, long end) {
        if (end <= start) {
            return;
        }
        int a = leaves + rankFirst[position];
        int b = leaves + rankLast[position];
        // the end leaves' paths
        for (int x = a, y = b; x >= 1; x >>= 1, y >>= 1) {
            addBelow(x, start, end);
            if (y != x) {
                addBelow(y, start, end);
            }
        }
        // the canonical nodes
        for (int lo = a, hi = b + 1; lo < hi; lo >>= 1, hi >>= 1) {
            if ((lo & 1) != 0) {
                addCover(lo, start, end);
                addBelow(lo, start, end);
                lo++;
            }
            if ((hi & 1) != 0) {
                hi--;
                addCover(hi, start, end);
                addBelow(hi, start, end);
            }
        }
    }

    /**
     * Gathers intervals whose union is the union of the byte ranges of the recorded items that
     * share a step with the item at {@code position}, sorted by start ({@link #starts()},
     * {@link #ends()}: the arrays themselves, valid until the next call). Returns how many.
     */
    public int gather(int position) {
        int m = 0;
        runCount = 0;
        int a = leaves + rankFirst[position];
        int b = leaves + rankLast[position];
        for (int x = a, y = b; x >= 1; x >>= 1, y >>= 1) {
            m = copy(cover[x], coverLen[x], m);
            if (y != x) {
                m = copy(cover[y], coverLen[y], m);
            }
        }
        for (int lo = a, hi = b + 1; lo < hi; lo >>= 1, hi >>= 1) {
            if ((lo & 1) != 0) {
                m = copy(below[lo], belowLen[lo], m);
                lo++;
            }
            if ((hi & 1) != 0) {
                hi--;
                m = copy(below[hi], belowLen[hi], m);
            }
        }
        mergeRuns(m);
        assert sortedByStart(m) : "gathered intervals not sorted by start";
        return m;
    }

    /**
     * The lowest aligned offset where {@code size} bytes fit beside the recorded items that share
     * a step with the item at {@code position}: the offset
     * {@code HeuristicSolver.firstGap} finds in what {@link #gather} gives, without gathering.
     * Both give the lowest offset {@code c}, 0 or a multiple of {@code align} reached by rounding
     * up, with {@code [c, c + size)} free: every offset from a candidate up to the end of a range
     * it meets meets that range too, so a candidate moves to the aligned end of the highest range
     * it meets. Each round reads each of the query's unions (the nodes {@link #gather} reads) by two
     * binary searches, and ends when no union meets the candidate: the few rounds of a low gap
     * cost a few searches where a gather copies and merges every interval.
     */
    public long firstFit(int position, long size, long align) {
        if (size == 0) {
            return 0;
        }
        int r = 0;
        int a = leaves + rankFirst[position];
        int b = leaves + rankLast[position];
        for (int x = a, y = b; x >= 1; x >>= 1, y >>= 1) {
            r = addSet(cover[x], coverLen[x], r);
            if (y != x) {
                r = addSet(cover[y], coverLen[y], r);
            }
        }
        for (int lo = a, hi = b + 1; lo < hi; lo >>= 1, hi >>= 1) {
            if ((lo & 1) != 0) {
                r = addSet(below[lo], belowLen[lo], r);
                lo++;
            }
            if ((hi & 1) != 0) {
                hi--;
                r = addSet(below[hi], belowLen[hi], r);
            }
        }
        long cand = 0;
        while (true) {
            long limit = Checked.saturatingAdd(cand, size);
            long reach = -1;
            for (int q = 0; q < r; q++) {
                long[] set = sets[q];
                int pairs = setPairs[q];
                // the first interval that ends after the candidate (ends increase)
                int lo = 0;
                int hi = pairs;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (set[2 * mid + 1] <= cand) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                if (lo == pairs || set[2 * lo] >= limit) {
                    continue;
                }
                // the last interval that starts below the limit: the highest end met in this union
                int from = lo + 1;
                int to = pairs;
                while (from < to) {
                    int mid = (from + to) >>> 1;
                    if (set[2 * mid] < limit) {
                        from = mid + 1;
                    } else {
                        to = mid;
                    }
                }
                reach = Math.max(reach, set[2 * from - 1]);
            }
            if (reach < 0) {
                return cand;
            }
            assert reach > cand : "a union met the candidate without passing it";
            cand = Checked.saturatingAlignUp(reach, align);
        }
    }

    /** Adds a non-empty union to the sets {@link #firstFit} reads; returns their number. */
    private int addSet(long[] set, int len, int r) {
        if (len == 0) {
            return r;
        }
        if (r == sets.length) {
            sets = Arrays.copyOf(sets, 2 * r);
            setPairs = Arrays.copyOf(setPairs, 2 * r);
        }
        sets[r] = set;
        setPairs[r] = len >> 1;
        return r + 1;
    }

    /**
     * Merges the sorted runs the copies left ({@link #runs}) into one sequence sorted by start,
     * pairwise, bottom up: m log(runs) steps, where a sort would take m log m (and quadratic
     * insertion sorts on the short arrays most queries gather). Equal starts may come in any order:
     * the gap searches read the same gaps whatever the order among intervals that start together.
     */
    private void mergeRuns(int m) {
        if (runCount + 1 > runs.length) {
            runs = Arrays.copyOf(runs, 2 * (runCount + 1));
        }
        runs[runCount] = m;
        int count = runCount;
        while (count > 1) {
            int out = 0;
            int next = 0;
            for (int r = 0; r < count; r += 2) {
                int from = runs[r];
                int mid = runs[r + 1];
                int to = r + 2 <= count ? runs[r + 2] : mid;
                merge(from, mid, to);
                runs[next++] = from;
                out = to;
            }
            runs[next] = out;
            count = next;
            long[] t = starts;
            starts = otherStarts;
            otherStarts = t;
            t = ends;
            ends = otherEnds;
            otherEnds = t;
        }
    }

    /** Merges {@code [from, mid)} and {@code [mid, to)} of the current arrays into the other arrays at {@code from}. */
    private void merge(int from, int mid, int to) {
        int i = from;
        int j = mid;
        int k = from;
        while (i < mid && j < to) {
            if (starts[j] < starts[i]) {
                otherStarts[k] = starts[j];
                otherEnds[k++] = ends[j++];
            } else {
                otherStarts[k] = starts[i];
                otherEnds[k++] = ends[i++];
            }
        }
        while (i < mid) {
            otherStarts[k] = starts[i];
            otherEnds[k++] = ends[i++];
        }
        while (j < to) {
            otherStarts[k] = starts[j];
            otherEnds[k++] = ends[j++];
        }
    }

    private boolean sortedByStart(int m) {
        for (int q = 1; q < m; q++) {
            if (starts[q] < starts[q - 1]) {
                return false;
            }
        }
        return true;
    }

    /** The starts of the last {@link #gather}'s intervals (the array itself, which a later gather may replace). */
    public long[] starts() {
        return starts;
    }

    /** The ends of the last {@link #gather}'s intervals (the array itself, which a later gather may replace). */
    public long[] ends() {
        return ends;
    }

    private int copy(long[] set, int len, int m) {
        int pairs = len >> 1;
        if (pairs == 0) {
            return m;
        }
        if (m + pairs > starts.length) {
            int room = Math.max(m + pairs, 2 * starts.length);
            starts = Arrays.copyOf(starts, room);
            ends = Arrays.copyOf(ends, room);
            otherStarts = new long[room];
            otherEnds = new long[room];
        }
        if (runCount + 2 > runs.length) {
            runs = Arrays.copyOf(runs, 2 * runs.length);
        }
        runs[runCount++] = m;
        for (int q = 0; q < len; q += 2) {
            starts[m] = set[q];
            ends[m++] = set[q + 1];
        }
        return m;
    }

    private void addCover(int node, long start, long end) {
        cover[node] = union(cover[node], coverLen, node, start, end);
    }

    private void addBelow(int node, long start, long end) {
        if (!read[node]) {
            return;
        }
        below[node] = union(below[node], belowLen, node, start, end);
    }

    /**
     * Adds {@code [start, end)} to the union held in {@code set} (of {@code lens[node]} longs),
     * merging the intervals it overlaps or touches; returns the array (grown if needed).
     */
    private static long[] union(long[] set, int[] lens, int node, long start, long end) {
        int len = lens[node];
        if (set == null) {
            set = new long[4];
        }
        // the first interval whose end reaches start (ends are increasing)
        int lo = 0;
        int hi = len >> 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (set[2 * mid + 1] < start) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int i = lo;
        int j = i;
        int pairs = len >> 1;
        long s = start;
        long e = end;
        while (j < pairs && set[2 * j] <= e) {
            s = Math.min(s, set[2 * j]);
            e = Math.max(e, set[2 * j + 1]);
            j++;
        }
        if (j == i) {
            // a new interval at i
            if (len + 2 > set.length) {
                set = Arrays.copyOf(set, 2 * set.length);
            }
            System.arraycopy(set, 2 * i, set, 2 * i + 2, len - 2 * i);
            set[2 * i] = s;
            set[2 * i + 1] = e;
            lens[node] = len + 2;
        } else {
            // intervals i..j-1 become one
            set[2 * i] = s;
            set[2 * i + 1] = e;
            int removed = j - i - 1;
            if (removed > 0) {
                System.arraycopy(set, 2 * j, set, 2 * i + 2, len - 2 * j);
                lens[node] = len - 2 * removed;
            }
        }
        return set;
    }
}
