package dev.berth.solve;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A deadline and a cancellation flag shared by cooperating searches, and an optional
 * {@link Progress} listener told about the search each time it polls {@link #exhausted()}.
 */
public final class Budget {
    private final long deadlineNanos;
    private final AtomicBoolean cancelled;
    private final long startNanos;
    private final double limitSeconds;
    private final Progress progress;

    private Budget(long deadlineNanos, AtomicBoolean cancelled, long startNanos, double limitSeconds, Progress progress) {
        this.deadlineNanos = deadlineNanos;
        this.cancelled = cancelled;
        this.startNanos = startNanos;
        this.limitSeconds = limitSeconds;
        this.progress = progress;
    }

    public static Budget seconds(double seconds) {
        return seconds(seconds, Progress.NONE);
    }

    /** A budget of {@code seconds} whose searches report to {@code progress} when they poll it. */
    public static Budget seconds(double seconds, Progress progress) {
        long nanos = seconds >= 1e9 ? Long.MAX_VALUE / 2 : (long) (seconds * 1e9);
        long now = System.nanoTime();
        return new Budget(now + nanos, new AtomicBoolean(), now, seconds, progress);
    }

    public static Budget unlimited() {
        return new Budget(Long.MAX_VALUE, new AtomicBoolean(), System.nanoTime(), Double.POSITIVE_INFINITY,
                Progress.NONE);
    }

    /** A budget that ends with this one or earlier, is cancelled with it and reports to the same listener. */
    public Budget child(double seconds) {
        long nanos = (long) (Math.min(seconds, 1e9) * 1e9);
        long d = Math.min(deadlineNanos, System.nanoTime() + nanos);
        return new Budget(d, cancelled, startNanos, limitSeconds, progress);
    }

    public boolean exhausted() {
        if (progress != Progress.NONE) {
            progress.searching((System.nanoTime() - startNanos) / 1e9, limitSeconds);
        }
        return cancelled.get() || (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0);
    }

    public void cancel() {
        cancelled.set(true);
    }

    public double remainingSeconds() {
        if (deadlineNanos == Long.MAX_VALUE) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.max(0, (deadlineNanos - System.nanoTime()) / 1e9);
    }
}
