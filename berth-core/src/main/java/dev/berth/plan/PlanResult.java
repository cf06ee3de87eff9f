package dev.berth.plan;

import dev.berth.artifact.Plan;
import dev.berth.solve.SolverKind;
import dev.berth.verify.Verdict;

import java.util.Map;

/** A validated plan, the solver each space's placement came from, and the validator's verdict. */
public record PlanResult(Plan plan, Map<String, SolverKind> solverBySpace, Verdict.Valid verdict) {
    public PlanResult {
        solverBySpace = Map.copyOf(solverBySpace);
    }
}
