package dev.berth.plan;

import dev.berth.artifact.Assignment;
import dev.berth.artifact.Plan;
import dev.berth.failure.Require;
import dev.berth.solve.SolverKind;
import dev.berth.target.Space;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A validated plan, the solver each space's placement came from (in the target's order of
 * spaces) and the validator's verdict.
 */
public record PlanResult(Plan plan, Map<String, SolverKind> solverBySpace, Verdict.Valid verdict) {
    public PlanResult {
        Require.nonNull(plan, "plan");
        solverBySpace = Collections.unmodifiableMap(new LinkedHashMap<>(Require.nonNull(solverBySpace, "solverBySpace")));
        Require.nonNull(verdict, "verdict");
    }

    /**
     * {@code plan} checked by the independent {@link PlanValidator}, with the solver each space's
     * placement came from: the one check after a plan is assembled, by the planner or again for a
     * layout that moves a planned space's entries (the head TFLM lays out). A plan the validator
     * rejects is an {@link InvalidPlanException} holding its verdict.
     */
    public static PlanResult validated(Plan plan, Map<String, SolverKind> solverBySpace) {
        Verdict v = PlanValidator.validate(plan);
        if (v instanceof Verdict.Invalid bad) {
            throw new InvalidPlanException(bad);
        }
        return new PlanResult(plan, solverBySpace, (Verdict.Valid) v);
    }

    /**
     * For a workload whose buffers have candidate spaces, what the planner chose for them and
     * what is proved about its traffic cost (the plan's, {@link Plan#assignment()}).
     */
    public Optional<Assignment> assignment() {
        return plan.assignment();
    }

    /** The solver whose placement {@code space} got; {@code invalid-input} for a space the plan does not have. */
    public SolverKind solver(Space space) {
        plan.metrics(space);
        return solverBySpace.get(space.name());
    }
}
