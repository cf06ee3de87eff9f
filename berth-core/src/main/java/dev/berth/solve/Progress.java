package dev.berth.solve;

/**
 * Told how a search under a {@link Budget} is going: each time the search polls
 * {@link Budget#exhausted()}, on the searching thread, and each time a minimisation narrows
 * the bracket of a space's height. It may be called many thousands of times a second, so it
 * must be quick (throttling is the listener's business) and must not throw.
 */
@FunctionalInterface
public interface Progress {
    /** A listener that does nothing. */
    Progress NONE = (elapsedSeconds, limitSeconds) -> {
    };

    /**
     * @param elapsedSeconds seconds since the root budget started
     * @param limitSeconds   the root budget's limit ({@code Double.POSITIVE_INFINITY} when unlimited)
     */
    void searching(double elapsedSeconds, double limitSeconds);

    /**
     * A minimisation of {@code space}'s height learned something: the smallest height is now known
     * to lie in [{@code lower}, {@code upper}] ({@code lower == upper}: proved), and why.
     * Heights here are those of the space's placed reservations, before generation adds its
     * allocations above them. Does nothing unless overridden.
     */
    default void bracket(String space, long lower, long upper, String event) {
    }

    /**
     * Whether the caller wants the searches to stop now and keep what they have (the user pressed
     * Ctrl-C): polled with {@link #searching}, on the searching threads, so it must be quick (a
     * volatile read). Once true, every search under the budget stops at its next poll, the
     * one-pass heuristics still place everything, and each space a stop left open says
     * {@code interrupted} ({@link Budget#stoppedByInterrupt()}). False unless overridden.
     */
    default boolean interrupted() {
        return false;
    }
}
