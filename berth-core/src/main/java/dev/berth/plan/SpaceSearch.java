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
 * The search phase for one space: the ladder of stages its work policy gives
 * ({@link WorkPolicy#ladder}), run in order until one ends the search, and what the result proves
 * about the space's height (the highest end of its placed reservations, before tiles and
 * generation add theirs).
 *
 * <p>{@code auto}: best fit and greedy by size (best fit on ties; above
 * {@link WorkPolicy#BOTH_HEURISTICS_UP_TO} items greedy alone); stop when the height equals the
 * lower bound; else the skyline heuristic (up to {@link WorkPolicy#SKYLINE_UP_TO} items, with the
 * work of {@link WorkPolicy#skyline}), stop again at the lower bound; else, up to
 * {@link WorkPolicy#MINIMIZE_UP_TO} items, the exact search narrows [lower bound, best height]
 * ({@link Minimizer}), first finding a placement within the limit if none fits yet. The work
 * of the search is counted in nodes ({@link WorkPolicy#search}). {@code exact}: the heuristics, then the
 * same narrowing with no size limit. A heuristic choice runs only that heuristic. At the fit
 * effort the ladder also stops at the first placement within the limit.
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
        Climb c = new Climb(p, options, budget, seed);
        for (Stage stage : WorkPolicy.of(options).ladder(options.solver(), c.items, finite(p))) {
            Optional<SpaceOutcome> o = stage.run(c);
            if (o.isPresent()) {
                return o.get();
            }
        }
        throw new IllegalStateException("the ladder of " + options.solver() + " ended without a placement");
    }

    /** One stage of the ladder: it improves the search so far, and ends the search or passes it on. */
    sealed interface Stage permits OneHeuristic, Heuristics, Skyline, TooLarge, Minimise {
        Optional<SpaceOutcome> run(Climb c);
    }

    /** The one heuristic a heuristic choice asks for (the seed instead when only the seed fits); it ends the search. */
    record OneHeuristic(SolverKind kind) implements Stage {
        @Override
        public Optional<SpaceOutcome> run(Climb c) {
            Outcome.Solved o = (Outcome.Solved) Solvers.of(kind, c.options.threads()).solve(c.p, c.budget);
            Optional<Outcome.Solved> s = seeded(c.p, c.seed);
            if (s.isPresent() && o.height() > c.p.limit()) {
                return Optional.of(c.done(s.get(), SolverKind.GREEDY, Optional.of(Optimality.Open.HEURISTIC)));
            }
            return Optional.of(c.done(o, kind, Optional.of(Optimality.Open.HEURISTIC)));
        }
    }

    /**
     * Best fit and greedy by size ({@code both}), the lower height winning, best fit on ties; or
     * greedy alone. Then the seed, when the best does not fit or the seed is lower. The exact
     * choice records its space as the exact solver's from here on.
     */
    record Heuristics(boolean both) implements Stage {
        @Override
        public Optional<SpaceOutcome> run(Climb c) {
            Outcome.Solved best = null;
            SolverKind kind = null;
            Outcome.Solved greedy;
            if (both) {
                List<Outcome.Solved> two = HeuristicSolver.bestFitAndGreedy(c.p, c.budget, c.options.threads());
                best = two.get(0);
                kind = SolverKind.BEST_FIT;
                greedy = two.get(1);
            } else {
                greedy = (Outcome.Solved) HeuristicSolver.greedyBySize().solve(c.p, c.budget);
            }
            if (best == null || greedy.height() < best.height()) {
                best = greedy;
                kind = SolverKind.GREEDY;
            }
            Optional<Outcome.Solved> seeded = seeded(c.p, c.seed);
            if (seeded.isPresent() && (best.height() > c.p.limit() || seeded.get().height() < best.height())) {
                best = seeded.get();
                kind = SolverKind.GREEDY;
            }
            c.best = best;
            c.kind = c.options.solver() == SolverChoice.EXACT ? SolverKind.EXACT : kind;
            c.heuristicsFit = best.height() <= c.p.limit();
            return c.stopIfDone();
        }
    }

    /** The skyline heuristic from the best placement so far, with these settings. */
    record Skyline(SkylineSolver.Settings settings) implements Stage {
        @Override
        public Optional<SpaceOutcome> run(Climb c) {
            Outcome.Solved sky = new SkylineSolver(settings).improve(c.p, c.best, c.budget);
            if (sky.height() < c.best.height()) {
                c.best = sky;
                c.kind = SolverKind.SKYLINE;
            }
            return c.stopIfDone();
        }
    }

    /** Too many items to minimise: the search ends with the bracket open ({@code "open": "size"}). */
    record TooLarge() implements Stage {
        @Override
        public Optional<SpaceOutcome> run(Climb c) {
            return Optional.of(c.done(c.best, c.kind, Optional.of(Optimality.Open.SIZE)));
        }
    }

    /**
     * The minimisation ({@link Minimizer}) of [lower bound, best height] with this work, first
     * finding a placement within the limit if none fits yet; it ends the search. The space is the
     * exact solver's when it went lower, or when the heuristics did not fit.
     */
    record Minimise(Minimizer.Work work) implements Stage {
        @Override
        public Optional<SpaceOutcome> run(Climb c) {
            ExactSolver.Settings settings = ExactSolver.Settings.defaults().searchOnly().withThreads(c.options.threads());
            String space = c.p.space() == null ? "" : c.p.space().name();
            Minimizer.Result r = Minimizer.minimize(c.p, Optional.of(c.best), c.lb, work, settings, c.budget,
                    step -> c.budget.progress().bracket(space, step.lower(), step.upper(), step.event()));
            if (r.offsets().isEmpty()) {
                // nothing within the limit: the heuristics' placement goes to the admission check, which says why
                Outcome exact = r.infeasible() ? new Outcome.Infeasible(r.infeasibleReason())
                        : new Outcome.Unknown(r.stop() == Minimizer.Stop.CLOCK
                        ? "the search stopped at the time limit without a placement or a proof"
                        : r.stop() == Minimizer.Stop.INTERRUPTED
                        ? "the search was interrupted without a placement or a proof"
                        : "the search used its work budget (" + r.nodes() + " nodes) without a placement or a proof");
                return Optional.of(new SpaceOutcome(c.best.offsets(), c.kind, c.best.height(), Optional.of(exact), c.lb,
                        c.lb, Optional.of(open(r.stop())), c.budget.stoppedByClock()));
            }
            SolverKind kind = r.upper() < c.best.height() || !c.heuristicsFit ? SolverKind.EXACT : c.kind;
            Optional<Optimality.Open> open = r.optimal() ? Optional.empty() : Optional.of(open(r.stop()));
            return Optional.of(new SpaceOutcome(r.offsets().get(), kind, r.upper(), Optional.empty(), c.lb, r.lower(),
                    open, c.budget.stoppedByClock()));
        }
    }

    /**
     * One space's search as it climbs the ladder: the problem, its items with bytes and lower
     * bound; the best placement so far, the solver it is recorded as, and whether the heuristics'
     * placement fitted the limit.
     */
    static final class Climb {
        private final SpaceProblem p;
        private final Planner.Options options;
        private final Budget budget;
        private final Optional<long[]> seed;
        private final int items;
        private final long lb;
        private Outcome.Solved best;
        private SolverKind kind;
        private boolean heuristicsFit;

        private Climb(SpaceProblem p, Planner.Options options, Budget budget, Optional<long[]> seed) {
            int n = 0;
            for (int i = 0; i < p.size(); i++) {
                if (p.reserved(i) > 0) {
                    n++;
                }
            }
            this.items = n;
            this.lb = p.lowerBound();
            this.p = p;
            this.options = options;
            this.budget = budget;
            this.seed = seed;
        }

        /** The end of the search at the best so far when it is at the lower bound, or when the fit effort has a placement within the limit. */
        private Optional<SpaceOutcome> stopIfDone() {
            if (best.height() <= lb) {
                return Optional.of(done(best, kind, Optional.empty()));
            }
            if (options.effort() == Effort.FIT && best.height() <= p.limit()) {
                return Optional.of(done(best, kind, Optional.of(Optimality.Open.WORK_BUDGET)));
            }
            return Optional.empty();
        }

        /** The outcome of placement {@code o}, with the lower bound as its bracket's lower end. */
        private SpaceOutcome done(Outcome.Solved o, SolverKind kind, Optional<Optimality.Open> open) {
            Optional<Optimality.Open> why = o.height() <= lb ? Optional.empty() : open;
            if (why.isPresent() && budget.stoppedByClock()) {
                why = Optional.of(Optimality.Open.TIME_LIMIT);
            }
            if (why.isPresent()) {
                why = Optional.of(interrupted(why.get(), budget));
            }
            return new SpaceOutcome(o.offsets(), kind, o.height(), Optional.empty(), lb, Math.min(lb, o.height()), why,
                    budget.stoppedByClock());
        }
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
}
