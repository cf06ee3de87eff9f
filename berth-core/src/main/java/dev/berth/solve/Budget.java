package dev.berth.solve;

import dev.berth.failure.Require;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The clock's side of a search: a deadline (the {@code --time-limit} safety net), a cancellation
 * flag shared by cooperating searches, and an optional {@link Progress} listener told about the
 * search each time it polls {@link #exhausted()}, which may also interrupt it
 * ({@link Progress#interrupted()}, {@link #stoppedByInterrupt()}).
 *
 * <p>How much a search does is bounded by work (nodes, rounds, dives), which gives the same
 * answer on every machine; the deadline only stops a search that runs too long. A budget
 * remembers whether its deadline ever stopped a search ({@link #stoppedByClock()}): a result
 * reached that way depends on the machine's speed and load. {@link #scope()} makes a budget
 * with the same deadline that remembers this for one part of the work (one space) and tells
 * its parent as well.
 */
public final class Budget {
    private final long deadlineNanos;
    private final AtomicBoolean cancelled;
    private final long startNanos;
    private final double limitSeconds;
    private final Progress progress;
    private final Budget parent;
    private volatile boolean clockStopped;
    private volatile boolean interruptStopped;

    private Budget(long deadlineNanos, AtomicBoolean cancelled, long startNanos, double limitSeconds, Progress progress,
                   Budget parent) {
        this.deadlineNanos = deadlineNanos;
        this.cancelled = cancelled;
        this.startNanos = startNanos;
        this.limitSeconds = limitSeconds;
        this.progress = progress;
        this.parent = parent;
    }

    /**
     * A budget of {@code seconds} from now: 0 is already exhausted, {@code +Infinity} has no
     * deadline (as {@link #unlimited()}); NaN or a negative number is {@code invalid-input} at
     * {@code seconds}.
     */
    public static Budget seconds(double seconds) {
        return seconds(seconds, Progress.NONE);
    }

    /**
     * A budget of {@code seconds} (as {@link #seconds(double)}) whose searches report to
     * {@code progress} when they poll it; a null {@code progress} is a NullPointerException
     * ({@link Progress#NONE} reports nowhere).
     */
    public static Budget seconds(double seconds, Progress progress) {
        requireSeconds(seconds);
        Objects.requireNonNull(progress, "progress");
        long now = System.nanoTime();
        if (seconds == Double.POSITIVE_INFINITY) {
            return new Budget(Long.MAX_VALUE, new AtomicBoolean(), now, seconds, progress, null);
        }
        long nanos = seconds >= 1e9 ? Long.MAX_VALUE / 2 : (long) (seconds * 1e9);
        return new Budget(now + nanos, new AtomicBoolean(), now, seconds, progress, null);
    }

    /** {@code invalid-input} at {@code seconds} unless it is 0..+Infinity. */
    private static void requireSeconds(double seconds) {
        if (!(seconds >= 0)) {
            throw Require.invalid("seconds", Double.toString(seconds), "a time budget is 0 or more "
                    + "seconds (Infinity for no deadline), got " + seconds);
        }
    }

    public static Budget unlimited() {
        return new Budget(Long.MAX_VALUE, new AtomicBoolean(), System.nanoTime(), Double.POSITIVE_INFINITY,
                Progress.NONE, null);
    }

    /**
     * A budget that ends with this one or {@code seconds} from now, whichever is earlier, is
     * cancelled with it and reports to the same listener; {@code seconds} as for
     * {@link #seconds(double)} ({@code +Infinity}: this budget's deadline).
     */
    public Budget child(double seconds) {
        requireSeconds(seconds);
        long nanos = (long) (Math.min(seconds, 1e9) * 1e9);
        long d = Math.min(deadlineNanos, System.nanoTime() + nanos);
        return new Budget(d, cancelled, startNanos, limitSeconds, progress, this);
    }

    /**
     * A budget with this one's deadline, cancellation and listener whose {@link #stoppedByClock()}
     * says whether the clock stopped a search run under it (this budget's flag is set as well).
     */
    public Budget scope() {
        return new Budget(deadlineNanos, cancelled, startNanos, limitSeconds, progress, this);
    }

    /**
     * True when the search must stop: cancelled, interrupted by the listener
     * ({@link Progress#interrupted()}; then {@link #stoppedByInterrupt()} is true), or the
     * deadline passed (then {@link #stoppedByClock()} is true).
     */
    public boolean exhausted() {
        if (progress != Progress.NONE) {
            progress.searching((System.nanoTime() - startNanos) / 1e9, limitSeconds);
            if (progress.interrupted()) {
                for (Budget b = this; b != null; b = b.parent) {
                    b.interruptStopped = true;
                }
                return true;
            }
        }
        return expired();
    }

    /**
     * {@link #exhausted()} without telling the listener: for one-pass loops that are not searches
     * (the heuristics), so that the listener hears only of searches.
     */
    public boolean expired() {
        if (cancelled.get()) {
            return true;
        }
        if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
            for (Budget b = this; b != null; b = b.parent) {
                b.clockStopped = true;
            }
            return true;
        }
        return false;
    }

    /** True once the deadline has stopped a search under this budget (or a scope or child of it). */
    public boolean stoppedByClock() {
        return clockStopped;
    }

    /**
     * True once the listener's {@link Progress#interrupted()} has stopped a search under this
     * budget (or a scope or child of it). The heuristics, which poll {@link #expired()}, never see it.
     */
    public boolean stoppedByInterrupt() {
        return interruptStopped;
    }

    public void cancel() {
        cancelled.set(true);
    }

    /** The listener searches report to. */
    public Progress progress() {
        return progress;
    }

    public double remainingSeconds() {
        if (deadlineNanos == Long.MAX_VALUE) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.max(0, (deadlineNanos - System.nanoTime()) / 1e9);
    }
}
