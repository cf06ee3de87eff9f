package dev.berth.assign;

import dev.berth.admit.Admission;
import dev.berth.alloc.SpaceAllocator;
import dev.berth.artifact.Assignment;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.target.Space;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Origin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;

/**
 * The documented policies Berth's choice is measured against, reimplemented from their
 * descriptions (no code of theirs), each giving the traffic cost of its assignment or nothing
 * when it cannot place every buffer:
 *
 * <ul>
 *   <li>{@code first-fit}, TVM's unified static memory planner (USMP, {@code greedy_by_size}
 *       with candidate pools): buffers largest first; each goes to the first pool of its
 *       candidate list where the lowest offset free of the buffers already placed there at
 *       overlapping steps still fits the pool.</li>
 *   <li>{@code fastest-bank-first}, ExecuTorch's {@code banked_greedy} (PR #21821): buffers with
 *       one space (pins) first, then the rest, each group largest first; each goes to the fastest
 *       bank (its first candidate on) whose greedy shared-object layout still fits the bank's
 *       capacity with it, spilling to the next. The layout is ExecuTorch's {@code greedy}: a
 *       buffer joins the first shared object none of whose buffers is live with it (at offset
 *       0), else the first whose overlapping buffers end low enough that it fits above them in
 *       the object, else a new object of its size; a bank's size is the sum of its objects.</li>
 * </ul>
 *
 * Fixed regions hold their bytes in both. Neither policy looks at accesses or costs: that is
 * the point of the comparison.
 */
final class Baselines {
    static final String FIRST_FIT = Assignment.Baseline.FIRST_FIT;
    static final String FASTEST_BANK_FIRST = Assignment.Baseline.FASTEST_BANK_FIRST;

    private Baselines() {
    }

    static List<Assignment.Baseline> all(Model m) {
        return List.of(new Assignment.Baseline(FIRST_FIT, firstFit(m)),
                new Assignment.Baseline(FASTEST_BANK_FIRST, fastestBankFirst(m)));
    }

    /** Input order, largest requested size first (a stable sort, as both planners sort). */
    private static Integer[] bySize(Model m, boolean pinsFirst) {
        Integer[] order = new Integer[m.entries.length];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Comparator<Integer> c = Comparator.comparingLong((Integer k) -> -m.entries[k].spec().size())
                .thenComparingInt(k -> m.entries[k].index());
        if (pinsFirst) {
            c = Comparator.comparing((Integer k) -> !m.entries[k].pinned()).thenComparing(c);
        }
        Arrays.sort(order, c);
        return order;
    }

    static OptionalLong firstFit(Model m) {
        SpaceAllocator[] pools = new SpaceAllocator[m.limited.size()];
        for (int s = 0; s < pools.length; s++) {
            pools[s] = new SpaceAllocator(m.limited.get(s));
            for (var f : m.fixed.get(s)) {
                try {
                    pools[s].reserveAt(f.name(), f.live(), f.offset(), f.size(), 1,
                            Admission.Mode.EXACT, Origin.FIXED);
                } catch (BerthException e) {
                    return OptionalLong.empty();
                }
            }
        }
        int[] choice = new int[m.entries.length];
        for (int k : bySize(m, false)) {
            Entry e = m.entries[k];
            BufferSpec b = e.spec();
            choice[k] = -1;
            for (int c = 0; c < b.candidates().size() && choice[k] < 0; c++) {
                int s = e.limited()[c];
                if (s < 0) {
                    choice[k] = c;
                } else if (fits(pools[s], b)) {
                    choice[k] = c;
                }
            }
            if (choice[k] < 0) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(m.cost(choice));
    }

    private static boolean fits(SpaceAllocator a, BufferSpec b) {
        try {
            a.reserve(b.name(), b.live(), b.size(), b.alignment(), Origin.TENSOR);
            return true;
        } catch (BerthException e) {
            if (e.category() != Category.CAPACITY_EXCEEDED && e.category() != Category.ADDRESS_NOT_ENCODABLE) {
                throw e;
            }
            return false;
        }
    }

    /** One bank's shared objects: each a size and the buffers in it (offset in the object, steps, bytes). */
    private static final class Bank {
        final long limit;
        final List<long[]> objects = new ArrayList<>(); // {size}
        final List<List<long[]>> members = new ArrayList<>(); // {offset, first, last, bytes}
        long total;

        Bank(long limit, long fixedBytes) {
            this.limit = limit;
            this.total = fixedBytes;
        }

        /** Places a buffer if the bank still fits; true when it did. */
        boolean place(int first, int last, long bytes) {
            for (int o = 0; o < objects.size(); o++) {
                boolean free = true;
                for (long[] a : members.get(o)) {
                    if (a[1] <= last && first <= a[2]) {
                        free = false;
                        break;
                    }
                }
                if (free && objects.get(o)[0] >= bytes) {
                    members.get(o).add(new long[]{0, first, last, bytes});
                    return true;
                }
            }
            for (int o = 0; o < objects.size(); o++) {
                long top = 0;
                for (long[] a : members.get(o)) {
                    if (a[1] <= last && first <= a[2]) {
                        top = Math.max(top, a[0] + a[3]);
                    }
                }
                if (top > 0 && top <= objects.get(o)[0] - bytes) {
                    members.get(o).add(new long[]{top, first, last, bytes});
                    return true;
                }
            }
            if (bytes > limit - total) {
                return false;
            }
            objects.add(new long[]{bytes});
            List<long[]> in = new ArrayList<>();
            in.add(new long[]{0, first, last, bytes});
            members.add(in);
            total += bytes;
            return true;
        }
    }

    static OptionalLong fastestBankFirst(Model m) {
        Bank[] banks = new Bank[m.limited.size()];
        for (int s = 0; s < banks.length; s++) {
            Space sp = m.limited.get(s);
            long fixedEnd = 0;
            for (var f : m.fixed.get(s)) {
                fixedEnd = Math.max(fixedEnd, f.offset() + f.size());
            }
            // the bank's objects start above what an earlier stage fixed there
            banks[s] = new Bank(Admission.limit(sp), fixedEnd);
        }
        int[] choice = new int[m.entries.length];
        for (int k : bySize(m, true)) {
            Entry e = m.entries[k];
            BufferSpec b = e.spec();
            choice[k] = -1;
            for (int c = 0; c < b.candidates().size() && choice[k] < 0; c++) {
                int s = e.limited()[c];
                if (s < 0 || e.reserved()[c] == 0 || banks[s].place(b.live().first(), b.live().last(), e.reserved()[c])) {
                    choice[k] = c;
                }
            }
            if (choice[k] < 0) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(m.cost(choice));
    }
}
