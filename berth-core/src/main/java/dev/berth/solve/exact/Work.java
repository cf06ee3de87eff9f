package dev.berth.solve.exact;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Counts the work of a long computation (loop iterations, about a nanosecond each) and polls a
 * stop condition every {@link #CHUNK} units, so that the computation stops within about a
 * millisecond of the condition, however its work is spread. A computation of less than one
 * chunk never polls.
 */
final class Work {
    /** Units of work between two polls. */
    static final long CHUNK = 1L << 20;

    private final BooleanSupplier stop;
    private final Supplier<String> reason;
    private long done;
    private long next = CHUNK;

    /** {@code reason} says why, when the condition stops the work. */
    Work(BooleanSupplier stop, Supplier<String> reason) {
        this.stop = stop;
        this.reason = reason;
    }

    /** Counts {@code units} of work done; throws when a poll finds the stop condition true. */
    void add(long units) throws Instance.Stopped {
        done += units;
        if (done >= next) {
            next = done + CHUNK;
            if (stop.getAsBoolean()) {
                throw new Instance.Stopped(reason.get());
            }
        }
    }

    /** The work counted so far. */
    long done() {
        return done;
    }
}
