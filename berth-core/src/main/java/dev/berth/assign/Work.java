package dev.berth.assign;

/**
 * The assignment's work budget, never time: {@code placements}, the reservations each greedy
 * order may try; {@code nodes}, the branch and bound's search nodes (0: no exact search).
 */
public record Work(long placements, long nodes) {
    public Work {
        if (placements < 0 || nodes < 0) {
            throw new IllegalArgumentException("work " + placements + ", " + nodes);
        }
    }
}
