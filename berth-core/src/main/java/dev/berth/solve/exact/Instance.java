package dev.berth.solve.exact;

import dev.berth.solve.SpaceProblem;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The part of a {@link SpaceProblem} the exact search works on: the items that take bytes
 * (reserved size above zero), renumbered {@code 0..n-1}, with their time structure
 * precomputed.
 *
 * <p><b>Sections.</b> Steps are cut into <em>sections</em>, the maximal sets of items live at
 * one moment (the maximal cliques of the interval graph): a section closes whenever an item
 * ends after some item started since the previous section closed. Every item is live in a
 * contiguous range of sections {@code secFirst..secLast}; two items overlap in time exactly
 * when their section ranges intersect. The items of one section are stacked in any placement,
 * so the sum of their sizes bounds the height from below, and the items that still have to be
 * placed in a section must fit above the lowest place any of them can go.
 *
 * <p><b>Cuts.</b> {@code crossing[s]} counts the items live in both section {@code s} and
 * {@code s+1}. When every item crossing a boundary is placed, the items left on either side
 * no longer interact and are solved separately.
 *
 * <p><b>Conflicts.</b> The items sharing a step with item {@code i} (never {@code i} itself)
 * are, without repetition and in this order: the other items of section {@code secFirst[i]}
 * (ascending), then the items whose first section is in {@code secFirst[i]+1..secLast[i]}
 * (by first section, then ascending). Both are slices of packed arrays ({@link #members},
 * {@link #byFirst}), so no list of pairs is ever stored; {@link #conflictsOf} writes one out.
 *
 * <p><b>Cost.</b> Building is in two parts. {@link #sections(SpaceProblem)} sorts the 2n
 * lifetime ends once and sweeps them: O(n log n) time, O(n) memory. {@link #build} then lays
 * out the members of every section, O(n + S + E) time and memory for S sections and
 * E = sum of the items' section counts; E is at most n + (number of conflicting pairs), since
 * every section after an item's first has an item that starts there and conflicts with it.
 * The build polls its stop condition every {@link Work#CHUNK} units of work (so a small
 * instance never polls) and refuses instances with more than {@link #MAX_ENTRIES} entries.
 */
final class Instance {
    /**
     * The most section entries (E above, 4 bytes each: 1 GiB) an instance may hold; past it the
     * exact search is not set up at all.
     */
    static final long MAX_ENTRIES = 1L << 28;

    /** Items of the search. */
    final int n;
    /** Index of each item in the original problem. */
    final int[] original;
    final long[] size;
    final long[] align;
    /** Fixed offset, or -1 for an item the search places. */
    final long[] fixedAt;
    final int[] secFirst;
    final int[] secLast;
    /** Number of sections. */
    final int sections;
    /** The items live in section s are {@code members[memberStart[s] .. memberStart[s+1])}, ascending. */
    final int[] memberStart;
    final int[] members;
    /**
     * The items by first section, then index: those whose first section is s are
     * {@code byFirst[firstStart[s] .. firstStart[s+1])}.
     */
    final int[] firstStart;
    final int[] byFirst;
    /** Items crossing from section s to s+1, for {@code s < sections - 1}. */
    final int[] crossing;
    /** Sum of the sizes live in each section (saturating at 2^63-1). */
    final long[] sectionTotal;
    final long limit;
    /** Lifetime length in steps (for orderings). */
    final long[] width;
    /**
     * The previous item identical to each free item (same size, alignment and steps), or -1:
     * interchangeable items are placed in index order (symmetry breaking).
     */
    final int[] twin;
    /** Number of pairs of items that share a step. */
    final long conflicts;
    /**
     * The ranks of the items in each order used so far ({@link #ranks}), shared by the copies of
     * {@link #withLimit} (the ranks do not depend on the limit).
     */
    private final Map<String, int[]> ranks;

    /** Why a build stopped: the stop condition said so (a time limit), or the instance is too large. */
    static final class Stopped extends Exception {
        Stopped(String reason) {
            super(reason, null, false, false);
        }
    }

    /**
     * The first part of the set-up: the items with bytes and their sections. O(n log n) time,
     * never stops.
     */
    static final class Sections {
        final int[] original;
        final long[] size;
        final long[] align;
        final long[] fixedAt;
        final long[] width;
        final long[] first;
        final long[] end;
        final int[] secFirst;
        final int[] secLast;
        final int sections;
        final long[] total;
        final long limit;

        private Sections(SpaceProblem p) {
            int count = p.size();
            int n = 0;
            for (int i = 0; i < count; i++) {
                if (p.reserved(i) > 0) {
                    n++;
                }
            }
            original = new int[n];
            size = new long[n];
            align = new long[n];
            fixedAt = new long[n];
            width = new long[n];
            first = new long[n];
            end = new long[n];
            for (int i = 0, k = 0; i < count; i++) {
                if (p.reserved(i) > 0) {
                    original[k] = i;
                    size[k] = p.reserved(i);
                    align[k] = p.isFixed(i) ? 1 : p.alignment(i);
                    fixedAt[k] = p.isFixed(i) ? p.fixedOffset(i) : -1;
                    first[k] = p.first(i);
                    end[k] = (long) p.last(i) + 1;
                    width[k] = end[k] - first[k];
                    k++;
                }
            }
            secFirst = new int[n];
            secLast = new int[n];
            long[] totals = new long[Math.max(1, n)];
            sections = sweep(first, end, size, secFirst, secLast, totals);
            total = Arrays.copyOf(totals, sections);
            limit = p.limit();
        }

        /** The sum over the items of the number of sections each is live in. */
        long entries() {
            long e = 0;
            for (int i = 0; i < secFirst.length; i++) {
                e += secLast[i] - secFirst[i] + 1;
            }
            return e;
        }
    }

    private Instance(Sections sec, long limit, int[] memberStart, int[] members, int[] firstStart, int[] byFirst,
                     int[] crossing, int[] twin, long conflicts) {
        this.n = sec.original.length;
        this.original = sec.original;
        this.size = sec.size;
        this.align = sec.align;
        this.fixedAt = sec.fixedAt;
        this.width = sec.width;
        this.secFirst = sec.secFirst;
        this.secLast = sec.secLast;
        this.sections = sec.sections;
        this.sectionTotal = sec.total;
        this.limit = limit;
        this.memberStart = memberStart;
        this.members = members;
        this.firstStart = firstStart;
        this.byFirst = byFirst;
        this.crossing = crossing;
        this.twin = twin;
        this.conflicts = conflicts;
        this.ranks = new ConcurrentHashMap<>();
    }

    private Instance(Instance o, long limit) {
        this.n = o.n;
        this.original = o.original;
        this.size = o.size;
        this.align = o.align;
        this.fixedAt = o.fixedAt;
        this.width = o.width;
        this.secFirst = o.secFirst;
        this.secLast = o.secLast;
        this.sections = o.sections;
        this.sectionTotal = o.sectionTotal;
        this.limit = limit;
        this.memberStart = o.memberStart;
        this.members = o.members;
        this.firstStart = o.firstStart;
        this.byFirst = o.byFirst;
        this.crossing = o.crossing;
        this.twin = o.twin;
        this.conflicts = o.conflicts;
        this.ranks = o.ranks;
    }

    /**
     * {@code rank[i]}: the position of item i in the order {@code keys} with this instance's
     * section totals ({@link ItemOrder#ranks}), computed once per order; never to be written.
     */
    int[] ranks(String keys) {
        return ranks.computeIfAbsent(keys, k -> ItemOrder.ranks(this, k));
    }

    /** The same instance with another limit (it shares every array: none is ever written after the build). */
    Instance withLimit(long newLimit) {
        return new Instance(this, newLimit);
    }

    /** The first part of the set-up of {@code p}: O(n log n). */
    static Sections sections(SpaceProblem p) {
        return new Sections(p);
    }

    /** {@link #build(Sections, BooleanSupplier)} of {@code p}. */
    static Instance build(SpaceProblem p, BooleanSupplier stop) throws Stopped {
        return build(sections(p), stop);
    }

    /**
     * The instance of the items of {@code sec} (those of a problem with a positive reserved
     * size; zero-size items take no bytes and conflict with nothing, the caller places them).
     * Polls {@code stop} every {@link Work#CHUNK} units of work and throws {@link Stopped} when it
     * holds, or at once when the instance would pass {@link #MAX_ENTRIES}: then nothing is
     * returned.
     */
    static Instance build(Sections sec, BooleanSupplier stop) throws Stopped {
        int n = sec.original.length;
        int sections = sec.sections;
        long entries = sec.entries();
        if (entries > MAX_ENTRIES) {
            throw new Stopped("the exact search was not set up: its " + n + " items are live in " + entries
                    + " (item, section) pairs over " + sections + " sections, more than its limit of " + MAX_ENTRIES
                    + " (" + (MAX_ENTRIES * Integer.BYTES >> 20) + " MiB)");
        }
        Work work = new Work(stop, () -> "the time limit ran out while setting up the exact search (" + n + " items, "
                + sections + " sections, " + entries + " (item, section) pairs)");
        work.add(n);
        int[] twin = twins(sec);
        work.add(n);
        // items by first section, then index (a counting sort, stable)
        int[] firstStart = new int[sections + 1];
        for (int i = 0; i < n; i++) {
            firstStart[sec.secFirst[i] + 1]++;
        }
        for (int s = 0; s < sections; s++) {
            firstStart[s + 1] += firstStart[s];
        }
        int[] byFirst = new int[n];
        int[] put = Arrays.copyOf(firstStart, sections + 1);
        for (int i = 0; i < n; i++) {
            byFirst[put[sec.secFirst[i]]++] = i;
        }
        // the items crossing each boundary, by a difference array
        int[] crossing = new int[Math.max(0, sections - 1)];
        for (int i = 0; i < n; i++) {
            if (sec.secLast[i] > sec.secFirst[i]) {
                crossing[sec.secFirst[i]]++;
                if (sec.secLast[i] < sections - 1) {
                    crossing[sec.secLast[i]]--;
                }
            }
        }
        for (int s = 1; s < sections - 1; s++) {
            crossing[s] += crossing[s - 1];
        }
        work.add(3L * n + sections);
        // the members of section s: those of s - 1 still live, merged with those starting in s,
        // both ascending; every entry is written once and read once more, in order
        int[] members = new int[(int) entries];
        int[] memberStart = new int[sections + 1];
        int at = 0;
        for (int s = 0; s < sections; s++) {
            int prev = s == 0 ? 0 : memberStart[s - 1];
            int prevEnd = at;
            memberStart[s] = at;
            int q = firstStart[s];
            int qEnd = firstStart[s + 1];
            while (prev < prevEnd || q < qEnd) {
                int k;
                if (q == qEnd || (prev < prevEnd && members[prev] < byFirst[q])) {
                    k = members[prev++];
                    if (sec.secLast[k] < s) {
                        continue;
                    }
                } else {
                    k = byFirst[q++];
                }
                members[at++] = k;
            }
            work.add(at - memberStart[s] + prevEnd - (s == 0 ? 0 : memberStart[s - 1]) + 1);
        }
        memberStart[sections] = at;
        long degrees = 0;
        for (int i = 0; i < n; i++) {
            int sf = sec.secFirst[i];
            degrees += memberStart[sf + 1] - memberStart[sf] - 1 + firstStart[sec.secLast[i] + 1] - firstStart[sf + 1];
        }
        work.add(2L * n + sections);
        return new Instance(sec, sec.limit, memberStart, members, firstStart, byFirst, crossing, twin, degrees / 2);
    }

    /**
     * Assigns every item its section range and fills the total of each section; returns the
     * number of sections. Events are processed in time order, ends before starts at the same
     * time (lifetimes are half-open here: {@code [first, end)}).
     */
    private static int sweep(long[] first, long[] end, long[] size, int[] secFirst, int[] secLast, long[] total) {
        int n = first.length;
        long[] ev = new long[2 * n];
        // unsigned key: time (at most 2^31) in the high 32 bits, then 0 for an end and 1 for a
        // start, then the item; the sign bit is flipped so that a signed sort gives the unsigned order
        for (int i = 0; i < n; i++) {
            ev[2 * i] = ((first[i] << 32) | (1L << 31) | i) ^ Long.MIN_VALUE;
            ev[2 * i + 1] = ((end[i] << 32) | i) ^ Long.MIN_VALUE;
        }
        Arrays.sort(ev);
        int sections = 0;
        boolean startedSinceClose = false;
        // the bytes live, exactly, as a 128-bit number (high, low): a section's total saturates
        long low = 0;
        long high = 0;
        for (long key : ev) {
            long e = key ^ Long.MIN_VALUE;
            int i = (int) (e & 0x7FFF_FFFFL);
            boolean start = (e & (1L << 31)) != 0;
            if (start) {
                secFirst[i] = sections;
                startedSinceClose = true;
                long sum = low + size[i];
                if (Long.compareUnsigned(sum, low) < 0) {
                    high++;
                }
                low = sum;
            } else {
                if (startedSinceClose) {
                    total[sections] = high != 0 || low < 0 ? Long.MAX_VALUE : low;
                    sections++;
                    startedSinceClose = false;
                }
                secLast[i] = sections - 1;
                long diff = low - size[i];
                if (Long.compareUnsigned(low, size[i]) < 0) {
                    high--;
                }
                low = diff;
            }
        }
        return sections;
    }

    /**
     * For each free item, the previous free item (by index) with the same size, alignment and
     * steps, or -1: one sort of the free items by those keys and their index.
     */
    private static int[] twins(Sections sec) {
        int n = sec.original.length;
        int[] twin = new int[n];
        Arrays.fill(twin, -1);
        int free = 0;
        for (int k = 0; k < n; k++) {
            if (sec.fixedAt[k] < 0) {
                free++;
            }
        }
        int[] items = new int[free];
        for (int k = 0, q = 0; k < n; k++) {
            if (sec.fixedAt[k] < 0) {
                items[q++] = k;
            }
        }
        IntSort.sort(items, (a, b) -> {
            int c = Long.compare(sec.size[a], sec.size[b]);
            if (c == 0) {
                c = Long.compare(sec.align[a], sec.align[b]);
            }
            if (c == 0) {
                c = Long.compare(sec.first[a], sec.first[b]);
            }
            if (c == 0) {
                c = Long.compare(sec.end[a], sec.end[b]);
            }
            return c != 0 ? c : Integer.compare(a, b);
        });
        for (int q = 1; q < free; q++) {
            int a = items[q - 1];
            int b = items[q];
            if (sec.size[a] == sec.size[b] && sec.align[a] == sec.align[b] && sec.first[a] == sec.first[b]
                    && sec.end[a] == sec.end[b]) {
                twin[b] = a;
            }
        }
        return twin;
    }

    /** The number of items that share a step with item {@code i}. */
    int degree(int i) {
        int sf = secFirst[i];
        return memberStart[sf + 1] - memberStart[sf] - 1 + firstStart[secLast[i] + 1] - firstStart[sf + 1];
    }

    /** The items that share a step with item {@code i}, in the order of the class comment. */
    int[] conflictsOf(int i) {
        int[] out = new int[degree(i)];
        int q = 0;
        int sf = secFirst[i];
        for (int x = memberStart[sf]; x < memberStart[sf + 1]; x++) {
            if (members[x] != i) {
                out[q++] = members[x];
            }
        }
        for (int x = firstStart[sf + 1]; x < firstStart[secLast[i] + 1]; x++) {
            out[q++] = byFirst[x];
        }
        return out;
    }

    /** True when items {@code a} and {@code b} share a step. */
    boolean overlap(int a, int b) {
        return secFirst[a] <= secLast[b] && secFirst[b] <= secLast[a];
    }
}
