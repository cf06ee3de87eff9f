package dev.berth.solve;

import java.util.concurrent.atomic.AtomicBoolean;

/** A deadline and a cancellation flag shared by cooperating searches. */
public final class Budget {
    private final long deadlineNanos;
    private final AtomicBoolean cancelled;

    private Budget(long deadlineNanos, AtomicBoolean cancelled) {
        this.deadlineNanos = deadlineNanos;
        this.cancelled = cancelled;
    }

    public static Budget seconds(double seconds) {
        long nanos = seconds >= 1e9 ? Long.MAX_VALUE / 2 : (long) (seconds * 1e9);
        return new Budget(System.nanoTime() + nanos, new AtomicBoolean());
    }

    public static Budget unlimited() {
        return new Budget(Long.MAX_VALUE, new AtomicBoolean());
    }

    /** A budget that ends with this one or earlier, and is cancelled with it. */
    public Budget child(double seconds) {
        long nanos = (long) (Math.min(seconds, 1e9) * 1e9);
        long d = Math.min(deadlineNanos, System.nanoTime() + nanos);
        return new Budget(d, cancelled);
    }

    public boolean exhausted() {
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
