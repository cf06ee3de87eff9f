package dev.berth.assign;

/**
 * The assignment's work budget, never time: {@code placements}, what each greedy order with its
 * repair may spend in {@link Packing#work()}'s measure (per reservation tried, one plus the
 * reservations its space held); {@code nodes}, the branch and bound's search nodes (0: no exact
 * search).
 */
public record Work(long placements, long nodes) {
    public Work {
        if (placements < 0 || nodes < 0) {
            throw new IllegalArgumentException("work " + placements + ", " + nodes);
        }
    }
}
