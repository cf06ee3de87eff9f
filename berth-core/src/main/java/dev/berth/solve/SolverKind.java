package dev.berth.solve;

import dev.berth.failure.BerthException;
import dev.berth.solve.exact.ExactSolver;
import dev.berth.solve.heuristic.HeuristicSolver;
import dev.berth.solve.skyline.SkylineSolver;

import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The solvers Berth has, a closed set: each has the id that files and the command line use
 * ({@code greedy}, {@code best-fit}, {@code skyline}, {@code exact}) and makes its solver with
 * default settings. Which of them placed a space is recorded in the plan by its id.
 */
public enum SolverKind {
    /** Largest item first, each at the lowest offset that fits ({@link HeuristicSolver#greedyBySize()}). */
    GREEDY("greedy", false),
    /** Largest item first, each in the tightest gap that fits ({@link HeuristicSolver#bestFit()}). */
    BEST_FIT("best-fit", false),
    /** Repeated skyline dives and peak repair ({@link SkylineSolver}), a heuristic. */
    SKYLINE("skyline", false),
    /** The complete search ({@link ExactSolver}): places within the limit, or proves nothing does. */
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

    /**
     * The solver of this kind with default settings; {@code threads} is the exact search's (0: one
     * per processor; the heuristics ignore it), and a negative count is {@code invalid-input} at
     * {@code threads} for every kind.
     */
    public Solver create(int threads) {
        if (threads < 0) {
            throw BerthException.invalid("threads", Integer.toString(threads), "threads: must be 0 (one per processor) "
                    + "or more, got " + threads);
        }
        return switch (this) {
            case GREEDY -> HeuristicSolver.greedyBySize();
            case BEST_FIT -> HeuristicSolver.bestFit();
            case SKYLINE -> new SkylineSolver();
            case EXACT -> new ExactSolver(ExactSolver.Settings.defaults().withThreads(threads));
        };
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
