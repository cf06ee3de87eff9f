package dev.berth.assign;

import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.workload.BufferSpec;

/**
 * One workload buffer as the assignment sees it: its index in the workload, its rank in the
 * placement order ({@link Model#canonical}), and per candidate the cost there, the bytes it
 * reserves there and the index of that space among the spaces with a capacity (-1 for a space
 * without one). {@code options} are the candidates worth trying, cheapest first (ties in the
 * buffer's order), up to and including the first without a capacity: a slower one never pays.
 */
record Entry(int index, BufferSpec spec, long[] cost, long[] reserved, int[] limited, int[] options) {

    String name() {
        return spec.name();
    }

    boolean pinned() {
        return !spec.hasChoice();
    }

    /** The candidate taken when nothing with a capacity fits: the first option without one, or -1. */
    int fallback() {
        for (int o : options) {
            if (limited[o] < 0) {
                return o;
            }
        }
        return -1;
    }

    /** The least cost over the options. */
    long minCost() {
        return cost[options[0]];
    }

    /**
     * The cost the savings of the bound are counted from: the fallback's, or, for a buffer whose
     * every candidate has a capacity, the dearest candidate's.
     */
    long baseCost() {
        int f = fallback();
        if (f >= 0) {
            return cost[f];
        }
        long max = 0;
        for (long c : cost) {
            max = Math.max(max, c);
        }
        return max;
    }

    /** accesses × size × accessCost, or {@code arithmetic-overflow} naming the buffer. */
    static long trafficCost(BufferSpec b, long accessCost) {
        try {
            return Checked.multiply(Checked.multiply(b.accesses(), b.size()), accessCost);
        } catch (BerthException e) {
            if (e.category() != Category.ARITHMETIC_OVERFLOW) {
                throw e;
            }
            throw new BerthException(new Failure.ArithmeticOverflow("buffer '" + b.name() + "': its traffic cost "
                    + b.accesses() + " accesses x " + b.size() + " bytes x accessCost " + accessCost
                    + " passes 2^63-1", "multiply", Facts.NONE));
        }
    }
}
