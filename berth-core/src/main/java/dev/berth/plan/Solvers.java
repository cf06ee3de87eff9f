package dev.berth.plan;

import dev.berth.failure.Require;
import dev.berth.solve.Solver;
import dev.berth.solve.SolverKind;
import dev.berth.solve.exact.ExactSolver;
import dev.berth.solve.heuristic.HeuristicSolver;
import dev.berth.solve.skyline.SkylineSolver;

import java.util.Objects;

/**
 * The solver of each {@link SolverKind}, with default settings: the one place that makes a
 * solver family's solver from its kind, beside the planner, so that the solver API names the
 * solvers without depending on them.
 */
public final class Solvers {
    private Solvers() {
    }

    /**
     * The solver of {@code kind} with default settings; {@code threads} is the exact search's (0: one
     * per processor; the heuristics ignore it), and a negative count is {@code invalid-input} at
     * {@code threads} for every kind. A null kind is a NullPointerException naming it.
     */
    public static Solver of(SolverKind kind, int threads) {
        Objects.requireNonNull(kind, "kind");
        if (threads < 0) {
            throw Require.invalid("threads", Integer.toString(threads), "must be 0 (one per processor) "
                    + "or more, got " + threads);
        }
        return switch (kind) {
            case GREEDY -> HeuristicSolver.greedyBySize();
            case BEST_FIT -> HeuristicSolver.bestFit();
            case SKYLINE -> new SkylineSolver();
            case EXACT -> new ExactSolver(ExactSolver.Settings.defaults().withThreads(threads));
        };
    }
}
