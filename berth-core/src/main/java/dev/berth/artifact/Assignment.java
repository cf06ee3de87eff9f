package dev.berth.artifact;

import dev.berth.failure.Require;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the planner chose for the buffers that have candidate spaces (contract §5
 * {@code space} lists): the traffic cost of the whole workload, Σ accesses × requested bytes ×
 * accessCost(space) over every buffer, a proved lower bound of that cost over every assignment
 * and every placement, the part of both that the buffers without candidates pay
 * ({@code pinnedCost}, the same whatever is chosen), how the choice is known to be the cheapest
 * (or that it is not), one {@link Choice} per buffer that had candidates, in input order, and
 * what the documented policies cost.
 */
public record Assignment(long cost, long lowerBound, long pinnedCost, Proof proof, List<Choice> choices,
                         List<Baseline> baselines) {
    /**
     * Checks that the figures agree: {@code 0 <= pinnedCost <= lowerBound <= cost}, a cost proved
     * by its bound equals it, and {@code cost} is {@code pinnedCost} plus the choices' costs;
     * otherwise {@code invalid-input} naming the field ({@code pinnedCost}, {@code lowerBound},
     * {@code proof} or {@code cost}). Null arguments or elements are NullPointerExceptions naming them.
     */
    public Assignment {
        Require.nonNull(proof, "proof");
        choices = Require.elements(choices, "choices");
        baselines = Require.elements(baselines, "baselines");
        if (pinnedCost < 0) {
            throw Require.invalid("pinnedCost", Long.toString(pinnedCost), "a traffic cost is "
                    + "0..2^63-1, got " + pinnedCost);
        }
        if (pinnedCost > lowerBound) {
            throw Require.invalid("pinnedCost", Long.toString(pinnedCost), "the buffers without "
                    + "candidates cost " + pinnedCost + ", more than the lower bound " + lowerBound);
        }
        if (cost < lowerBound) {
            throw Require.invalid("lowerBound", Long.toString(lowerBound), lowerBound
                    + " is above the cost " + cost);
        }
        if (proof == Proof.LOWER_BOUND && cost != lowerBound) {
            throw Require.invalid("proof", proof.id(), "'lower-bound', but the cost " + cost
                    + " is not the lower bound " + lowerBound);
        }
        long sum = total(pinnedCost, choices);
        if (sum != cost) {
            throw Require.invalid("cost", Long.toString(cost), cost + " is not pinnedCost "
                    + pinnedCost + " plus the choices' costs (" + (sum < 0 ? "past 2^63-1" : Long.toString(sum)) + ")");
        }
    }

    /** What the choices cost with {@code pinnedCost}, or -1 past 2^63-1: {@code cost} is this sum. */
    public static long total(long pinnedCost, List<Choice> choices) {
        long sum = pinnedCost;
        for (Choice c : choices) {
            if (sum > Long.MAX_VALUE - c.cost()) {
                return -1;
            }
            sum += c.cost();
        }
        return sum;
    }

    /** True when no assignment is known to cost less ({@link Proof#LOWER_BOUND} or {@link Proof#SEARCH}). */
    public boolean optimal() {
        return proof != Proof.OPEN;
    }

    /** The choice for {@code buffer}, if it had candidates. */
    public Optional<Choice> choice(String buffer) {
        Require.nonNull(buffer, "buffer");
        return choices.stream().filter(c -> c.buffer().equals(buffer)).findFirst();
    }

    /**
     * What a documented policy costs on the same workload and target, for comparison: empty when
     * it cannot place every buffer. {@code first-fit} is TVM USMP's (largest first, the first
     * candidate pool where it fits), {@code fastest-bank-first} ExecuTorch's {@code banked_greedy}.
     */
    public record Baseline(String policy, OptionalLong cost) {
        public static final String FIRST_FIT = "first-fit";
        public static final String FASTEST_BANK_FIRST = "fastest-bank-first";
        /** The policies an assignment reports, in its order. */
        public static final List<String> POLICIES = List.of(FIRST_FIT, FASTEST_BANK_FIRST);

        public Baseline {
            Require.name(policy, "policy");
            Require.nonNull(cost, "cost");
        }
    }

    /** The cost of the policy of that id, if it placed everything. */
    public OptionalLong baseline(String policy) {
        return baselines.stream().filter(b -> b.policy().equals(policy)).findFirst().map(Baseline::cost)
                .orElse(OptionalLong.empty());
    }

    /** How the cost is known to be the least. */
    public enum Proof {
        /**
         * The cost equals the lower bound (each step's fast space holds at most its capacity of
         * the reserved bytes of the buffers live there): no assignment with any placement costs less.
         */
        LOWER_BOUND("lower-bound"),
        /**
         * A complete search over every assignment found none cheaper among those whose buffers
         * the allocator places, largest first at the lowest free offset, within every capacity
         * (a placement rule; another rule might fit a cheaper assignment).
         */
        SEARCH("search"),
        /** Not proved: the least cost is in [lowerBound, cost]. */
        OPEN("open");

        private final String id;

        Proof(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        public static Optional<Proof> byId(String id) {
            return Arrays.stream(values()).filter(p -> p.id.equals(id)).findFirst();
        }
    }

    /**
     * One buffer's choice: the space it got ({@code rank} 0 for its first candidate), the traffic
     * cost there, and, when it did not get its first candidate, why. A negative rank or cost,
     * or a why for a first choice, is {@code invalid-input} naming {@code rank}, {@code cost} or
     * {@code why}.
     */
    public record Choice(String buffer, String space, int rank, long cost, Optional<Why> why) {
        public Choice {
            Require.name(buffer, "buffer");
            Require.name(space, "space");
            if (rank < 0) {
                throw Require.invalid("rank", Integer.toString(rank), buffer + "'s candidate rank "
                        + "is 0 or more, got " + rank);
            }
            if (cost < 0) {
                throw Require.invalid("cost", Long.toString(cost), buffer + "'s traffic cost is "
                        + "0..2^63-1, got " + cost);
            }
            Require.nonNull(why, "why");
            if (rank == 0 && why.isPresent()) {
                throw Require.invalid("why", buffer + " got its first choice: nothing to explain");
            }
        }
    }

    /**
     * Why a buffer is not in its first candidate {@code space}: at {@code step}, one of its live
     * steps, {@code liveBytes} of the space's {@code usable} bytes were held by {@code holders}
     * (the largest first, at most {@link #MAX_HOLDERS}), so that its {@code reserved} bytes did
     * not fit beside them; or, when {@code liveBytes + reserved <= usable} at every step,
     * free bytes were split into gaps too small for it ({@code fragmented}), or the space had
     * room but costs no less than the one chosen ({@code notCheaper}).
     */
    public record Why(String space, int step, long liveBytes, long usable, long reserved, List<String> holders,
                      Reason reason) {
        public static final int MAX_HOLDERS = 5;

        public Why {
            Require.name(space, "space");
            holders = Require.elements(holders, "holders");
            Require.nonNull(reason, "reason");
        }
    }

    /** The kind of reason a buffer is not in its first candidate. */
    public enum Reason {
        /** Its first candidate had fewer free bytes than it needs at {@code step}. */
        FULL("full"),
        /** Enough free bytes at every step, but no gap large enough at one offset for all its steps. */
        FRAGMENTED("fragmented"),
        /** The first candidate costs no less per byte than the space chosen. */
        NOT_CHEAPER("not-cheaper");

        private final String id;

        Reason(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        public static Optional<Reason> byId(String id) {
            return Arrays.stream(values()).filter(r -> r.id.equals(id)).findFirst();
        }
    }
}
