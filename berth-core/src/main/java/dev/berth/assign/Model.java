package dev.berth.assign;

import dev.berth.admit.Admission;
import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The assignment's view of a workload on a target: the spaces with a capacity ({@code limited},
 * in the target's order), every buffer as an {@link Entry}, and the placement order: largest
 * requested size first, then the earliest first step, then input order. Every placement the
 * assignment tries puts the buffers of a space in this order, each at the lowest free offset
 * ({@link Packing}), so a set of buffers fits or not whatever order the choices were made in.
 */
final class Model {
    final Target target;
    final Workload workload;
    final List<Space> limited;
    /** Every buffer, in the placement order; {@code entries[k]} has rank {@code k}. */
    final Entry[] entries;
    /** The ranks of the buffers with candidates, in the placement order. */
    final int[] choosers;
    /** The fixed regions of each limited space. */
    final List<List<FixedRegion>> fixed;

    Model(Target target, Workload workload) {
        this.target = target;
        this.workload = workload;
        List<Space> lim = new ArrayList<>();
        for (Space s : target.spaces().values()) {
            if (s.capacity().isPresent()) {
                lim.add(s);
            }
        }
        this.limited = List.copyOf(lim);
        List<List<FixedRegion>> fx = new ArrayList<>();
        for (Space s : limited) {
            fx.add(workload.fixed().stream().filter(f -> f.space().name().equals(s.name())).toList());
        }
        this.fixed = List.copyOf(fx);
        List<BufferSpec> bs = workload.buffers();
        Integer[] order = new Integer[bs.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> -bs.get(i).size())
                .thenComparingInt(i -> bs.get(i).live().first()).thenComparingInt(i -> i));
        entries = new Entry[order.length];
        List<Integer> ch = new ArrayList<>();
        for (int k = 0; k < order.length; k++) {
            entries[k] = entry(order[k], bs.get(order[k]));
            if (!entries[k].pinned()) {
                ch.add(k);
            }
        }
        choosers = ch.stream().mapToInt(Integer::intValue).toArray();
    }

    private Entry entry(int index, BufferSpec b) {
        int m = b.candidates().size();
        long[] cost = new long[m];
        long[] reserved = new long[m];
        int[] lim = new int[m];
        for (int j = 0; j < m; j++) {
            Space s = b.candidates().get(j);
            cost[j] = Entry.trafficCost(b, s.accessCost());
            reserved[j] = Admission.reservedSize(s, b.name(), b.size(),
                    Admission.effectiveAlignment(s, b.name(), b.size(), b.alignment()));
            lim[j] = limited.indexOf(s);
        }
        Integer[] byCost = new Integer[m];
        for (int j = 0; j < m; j++) {
            byCost[j] = j;
        }
        Arrays.sort(byCost, Comparator.comparingLong((Integer j) -> cost[j]).thenComparingInt(j -> j));
        List<Integer> opts = new ArrayList<>();
        for (int j : byCost) {
            opts.add(j);
            if (lim[j] < 0) {
                break;
            }
        }
        return new Entry(index, b, cost, reserved, lim, opts.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The cost of an assignment ({@code choice[rank]}: the candidate of each buffer), checked. */
    long cost(int[] choice) {
        long sum = 0;
        for (int k = 0; k < entries.length; k++) {
            sum = add(sum, entries[k].cost()[choice[k]]);
        }
        return sum;
    }

    /** The traffic costs' sum, or {@code arithmetic-overflow} saying so. */
    static long add(long sum, long cost) {
        try {
            return Checked.add(sum, cost);
        } catch (BerthException e) {
            throw new BerthException(new Failure.ArithmeticOverflow("the workload's traffic cost passes 2^63-1 ("
                    + sum + " + " + cost + ")", "add", Facts.NONE));
        }
    }

    /** What the buffers without candidates cost, whatever is chosen for the others. */
    long pinnedCost() {
        long sum = 0;
        for (Entry e : entries) {
            if (e.pinned()) {
                sum = add(sum, e.cost()[0]);
            }
        }
        return sum;
    }

    /** The assignment that takes each buffer's first option (for pinned buffers, their only space). */
    int[] cheapest() {
        int[] c = new int[entries.length];
        for (int k = 0; k < entries.length; k++) {
            c[k] = entries[k].options()[0];
        }
        return c;
    }
}
