package dev.berth.solve;

/**
 * Told how a search under a {@link Budget} is going: each time the search polls
 * {@link Budget#exhausted()}, on the searching thread. It may be called many thousands of times
 * a second, so it must be quick (throttling is the listener's business) and must not throw.
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
}
