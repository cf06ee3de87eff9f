package dev.berth.solve;

/**
 * Places the free items of a {@link SpaceProblem}. Heuristic solvers always return
 * {@link Outcome.Solved} and may exceed the limit (the planner checks); complete solvers
 * respect the limit and return {@link Outcome.Infeasible} only with a proof.
 */
public interface Solver {
    /** Which of Berth's solvers this is. */
    SolverKind kind();

    Outcome solve(SpaceProblem problem, Budget budget);
}
