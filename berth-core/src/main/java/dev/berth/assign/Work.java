package dev.berth.assign;

/**
 * The assignment's work budget, never time: {@code placements}, what each greedy order with its
 * repair may spend in {@link Packing#work()}'s measure (per reservation tried, one plus the
 * reservations its space held); {@code nodes}, the branch and bound's search nodes (0: no exact
 * search); {@code searchUpTo}, the most buffers with candidate spaces the branch and bound is run
 * on. The planner's work policy sets them.
 */
public record Work(long placements, long nodes, int searchUpTo) {
    public Work {
        if (placements < 0 || nodes < 0 || searchUpTo < 0) {
            throw new IllegalArgumentException("work " + placements + ", " + nodes + ", " + searchUpTo);
        }
    }
}
