package dev.berth.plan;

import dev.berth.verify.Verdict;

/** A plan the independent validator rejected: a bug in a planner, never written out. */
public final class InvalidPlanException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Verdict.Invalid verdict;

    public InvalidPlanException(Verdict.Invalid verdict) {
        super(verdict.toString());
        this.verdict = verdict;
    }

    public Verdict.Invalid verdict() {
        return verdict;
    }
}
