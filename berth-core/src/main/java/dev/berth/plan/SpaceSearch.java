package dev.berth.plan;

import dev.berth.arith.Checked;
import dev.berth.artifact.Optimality;
import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.solve.SpaceProblem;
import dev.berth.solve.exact.ExactSolver;
import dev.berth.solve.exact.Minimizer;
import dev.berth.solve.heuristic.HeuristicSolver;
import dev.berth.solve.skyline.SkylineSolver;

import java.util.List;
import java.util.Optional;

/**
 * Solver selection for one space: which solvers run, in what order, with how much work, and
 * what the result proves about the space's height (the highest end of its placed reservations,
 * before tiles and generation add theirs).
 *
 * <p>{@code auto}: best fit and greedy by size (best fit on ties; above
 * {@link WorkPolicy#BOTH_HEURISTICS_UP_TO} items greedy alone); stop when the height equals the
 * lower bound; else the skyline heuristic (up to {@link WorkPolicy#SKYLINE_UP_TO} items, with the
 * work of {@link WorkPolicy#skyline}), stop again at the lower bound; else, up to
 * {@link WorkPolicy#MINIMIZE_UP_TO} items, the exact search narrows [lower bound, best height]
 * ({@link Minimizer}), first finding a placement within the limit if none fits yet. The work
 * of the search is counted in nodes ({@link WorkPolicy#search}). {@code exact}: the heuristics, then the
 * same narrowing with no size limit. A heuristic choice runs only that heuristic.
 */
final class SpaceSearch {
    private SpaceSearch() {
    }

    /**
     * Solves one space. {@code seed}, a placement within the limit the assignment phase found
     * (first fit, largest first: greedy by size), is kept when the heuristics' best does not
     * fit or is higher, so that a space whose buffers were chosen to fit is never worse.
     */
    static SpaceOutcome solve(SpaceProblem p, Planner.Options options, Budget budget, Optional<long[]> seed) {
        int items = 0;
        for (int i = 0; i < p.size(); i++) {
            if (p.reserved(i) > 0) {
                items++;
            }
        }
        long lb = p.lowerBound();
        SolverChoice choice = options.solver();
        Effort effort = options.effort();
        WorkPolicy policy = WorkPolicy.of(options);
        if (choice.kind().isPresent() && !choice.kind().get().complete()) {
            SolverKind k = choice.kind().get();
            Outcome.Solved o = (Outcome.Solved) Solvers.of(k, options.threads()).solve(p, budget);
            Optional<Outcome.Solved> s = seeded(p, seed);
            if (s.isPresent() && o.height() > p.limit()) {
                return done(s.get(), SolverKind.GREEDY, lb, lb, Optional.of(Optimality.Open.HEURISTIC), budget);
            }
            return done(o, k, lb, lb, Optional.of(Optimality.Open.HEURISTIC), budget);
        }
        boolean exactChoice = choice == SolverChoice.EXACT;
        Outcome.Solved best = null;
        SolverKind kind = null;
        Outcome.Solved greedy;
        if (exactChoice || items <= WorkPolicy.BOTH_HEURISTICS_UP_TO) {
            List<Outcome.Solved> both = HeuristicSolver.bestFitAndGreedy(p, budget, options.threads());
            best = both.get(0);
            kind = SolverKind.BEST_FIT;
            greedy = both.get(1);
        } else {
            greedy = (Outcome.Solved) HeuristicSolver.greedyBySize().solve(p, budget);
        }
        if (best == null || greedy.height() < best.height()) {
            best = greedy;
            kind = SolverKind.GREEDY;
        }
        Optional<Outcome.Solved> seeded = seeded(p, seed);
        if (seeded.isPresent() && (best.height() > p.limit() || seeded.get().height() < best.height())) {
            best = seeded.get();
            kind = SolverKind.GREEDY;
        }
        if (exactChoice) {
            kind = SolverKind.EXACT;
        }
        if (best.height() <= lb) {
            return done(best, kind, lb, lb, Optional.empty(), budget);
        }
        boolean fits = best.height() <= p.limit();
        if (effort == Effort.FIT && fits) {
            return done(best, kind, lb, lb, Optional.of(Optimality.Open.WORK_BUDGET), budget);
        }
        if (!exactChoice && items <= WorkPolicy.SKYLINE_UP_TO && (effort != Effort.FIT || finite(p))) {
            Outcome.Solved sky = new SkylineSolver(policy.skyline(items)).improve(p, best, budget);
            if (sky.height() < best.height()) {
                best = sky;
                kind = SolverKind.SKYLINE;
            }
            if (best.height() <= lb) {
                return done(best, kind, lb, lb, Optional.empty(), budget);
            }
            if (effort == Effort.FIT && best.height() <= p.limit()) {
                return done(best, kind, lb, lb, Optional.of(Optimality.Open.WORK_BUDGET), budget);
            }
        }
        if (!exactChoice && items > WorkPolicy.MINIMIZE_UP_TO) {
            return done(best, kind, lb, lb, Optional.of(Optimality.Open.SIZE), budget);
        }
        ExactSolver.Settings settings = ExactSolver.Settings.defaults().searchOnly().withThreads(options.threads());
        String space = p.space() == null ? "" : p.space().name();
        Minimizer.Result r = Minimizer.minimize(p, Optional.of(best), lb, policy.search(items), settings, budget,
                step -> budget.progress().bracket(space, step.lower(), step.upper(), step.event()));
        if (r.offsets().isEmpty()) {
            // nothing within the limit: the heuristics' placement goes to the admission check, which says why
            Outcome exact = r.infeasible() ? new Outcome.Infeasible(r.infeasibleReason())
                    : new Outcome.Unknown(r.stop() == Minimizer.Stop.CLOCK
                    ? "the search stopped at the time limit without a placement or a proof"
                    : r.stop() == Minimizer.Stop.INTERRUPTED
                    ? "the search was interrupted without a placement or a proof"
                    : "the search used its work budget (" + r.nodes() + " nodes) without a placement or a proof");
            return new SpaceOutcome(best.offsets(), kind, best.height(), Optional.of(exact), lb, lb,
                    Optional.of(open(r.stop())), budget.stoppedByClock());
        }
        long[] offsets = r.offsets().get();
        if (r.upper() < best.height() || !fits) {
            kind = SolverKind.EXACT;
        }
        Optional<Optimality.Open> open = r.optimal() ? Optional.empty() : Optional.of(open(r.stop()));
        return new SpaceOutcome(offsets, kind, r.upper(), Optional.empty(), lb, r.lower(), open,
                budget.stoppedByClock());
    }

    /** The seed as a solution: its offsets and height (the highest end). */
    private static Optional<Outcome.Solved> seeded(SpaceProblem p, Optional<long[]> seed) {
        if (seed.isEmpty()) {
            return Optional.empty();
        }
        long[] o = seed.get();
        long h = 0;
        for (int i = 0; i < p.size(); i++) {
            h = Math.max(h, Checked.saturatingAdd(o[i], p.reserved(i)));
        }
        return Optional.of(new Outcome.Solved(o.clone(), h));
    }

    /** Why the minimiser left the bracket open, as the artifact says it. */
    private static Optimality.Open open(Minimizer.Stop stop) {
        return switch (stop) {
            case CLOCK -> Optimality.Open.TIME_LIMIT;
            case NOT_SET_UP -> Optimality.Open.SIZE;
            case INTERRUPTED -> Optimality.Open.INTERRUPTED;
            default -> Optimality.Open.WORK_BUDGET;
        };
    }

    /** {@code open}, or {@code interrupted} when the user's interrupt stopped a search of this space. */
    private static Optimality.Open interrupted(Optimality.Open open, Budget budget) {
        return budget.stoppedByInterrupt() ? Optimality.Open.INTERRUPTED : open;
    }

    private static boolean finite(SpaceProblem p) {
        return p.space() != null && p.space().capacity().isPresent();
    }

    private static SpaceOutcome done(Outcome.Solved o, SolverKind kind, long lb, long proved,
                                             Optional<Optimality.Open> open, Budget budget) {
        Optional<Optimality.Open> why = o.height() <= proved ? Optional.empty() : open;
        if (why.isPresent() && budget.stoppedByClock()) {
            why = Optional.of(Optimality.Open.TIME_LIMIT);
        }
        if (why.isPresent()) {
            why = Optional.of(interrupted(why.get(), budget));
        }
        return new SpaceOutcome(o.offsets(), kind, o.height(), Optional.empty(), lb,
                Math.min(proved, o.height()), why, budget.stoppedByClock());
    }
}
