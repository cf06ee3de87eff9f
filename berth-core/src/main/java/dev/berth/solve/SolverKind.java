package dev.berth.solve;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The solvers Berth has, a closed set, as identifiers: each has the id that files and the command
 * line use ({@code greedy}, {@code best-fit}, {@code skyline}, {@code exact}). Which of them placed
 * a space is recorded in the plan by its id. The solver of a kind is made beside the planner,
 * {@code dev.berth.plan.Solvers.of}: this package names the solvers and does not depend on them.
 */
public enum SolverKind {
    /** Largest item first, each at the lowest offset that fits ({@code HeuristicSolver.greedyBySize()}). */
    GREEDY("greedy", false),
    /** Largest item first, each in the tightest gap that fits ({@code HeuristicSolver.bestFit()}). */
    BEST_FIT("best-fit", false),
    /** Repeated skyline dives and peak repair ({@code SkylineSolver}), a heuristic. */
    SKYLINE("skyline", false),
    /** The complete search ({@code ExactSolver}): places within the limit, or proves nothing does. */
    EXACT("exact", true);

    private final String id;
    private final boolean complete;

    SolverKind(String id, boolean complete) {
        this.id = id;
        this.complete = complete;
    }

    public String id() {
        return id;
    }

    /** True for a complete search (it can prove that nothing fits), false for a heuristic. */
    public boolean complete() {
        return complete;
    }

    public static Optional<SolverKind> byId(String id) {
        return Arrays.stream(values()).filter(k -> k.id.equals(id)).findFirst();
    }

    /** The ids, comma-separated, for messages ("greedy, best-fit, skyline, exact"). */
    public static String ids() {
        return Arrays.stream(values()).map(SolverKind::id).collect(Collectors.joining(", "));
    }

    /** The id, so that messages read "the best-fit placement". */
    @Override
    public String toString() {
        return id;
    }
}
