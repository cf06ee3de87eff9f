package dev.berth.plan;

import dev.berth.verify.Verdict;

/**
 * A plan the independent validator rejected ({@link PlanResult#validated}), never written out: from
 * the planner, a bug in it; from a layout that moves a planned space's entries (the head TFLM lays
 * out), a layout not kept.
 */
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
