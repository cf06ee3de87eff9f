package dev.berth.plan;

import dev.berth.arith.Checked;
import dev.berth.artifact.Optimality;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Facts;
import dev.berth.failure.Failure;
import dev.berth.solve.Budget;
import dev.berth.solve.LiveBytes;
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
 * {@link #BOTH_HEURISTICS_UP_TO} items greedy alone); stop when the height equals the lower
 * bound; else the skyline heuristic (up to {@link #SKYLINE_SEARCH_UP_TO} items its dives and
 * repairs cut to about {@link #skylinePlacements} placements; above, up to {@link #SKYLINE_UP_TO}
 * items, one dive), stop again at the lower bound; else,
 * up to {@link #EXACT_UP_TO} items, the exact search narrows [lower bound, best height]
 * ({@link Minimizer}), first finding a placement within the limit if none fits yet. The work
 * of the search is counted in nodes ({@link #work}). {@code exact}: the heuristics, then the
 * same narrowing with no size limit. A heuristic choice runs only that heuristic.
 */
final class SpaceSearch {
    /** Above this many items, {@code auto} runs greedy by size alone (best fit would double the time at 10^6 items). */
    static final int BOTH_HEURISTICS_UP_TO = 1 << 17;
    /** Above this many items, {@code auto} does not run the skyline heuristic. */
    static final int SKYLINE_UP_TO = 1 << 15;
    /**
     * Above this many items (up to {@link #SKYLINE_UP_TO}), {@code auto}'s skyline heuristic is one
     * dive, larger area (bytes times steps) first, and no repairs, at every effort. Its dives are
     * lazy there (the conflict lists are too long): a lazy dive of longer lifetime first, which the
     * work rule would run first at up to 22,360 items, cost 1.8 to 6.2 times the work of one of
     * larger area first on five of idealloc's traces (pangu_2.6B, S_1, bert_large, bert_nezha,
     * pangu_13B) and was never lower.
     */
    static final int SKYLINE_SEARCH_UP_TO = 1 << 14;
    /** Above this many items, {@code auto} does not run the exact search (its set-up grows faster than the items). */
    static final int EXACT_UP_TO = 1 << 12;
    /** The skyline heuristic's work in {@code auto}'s default effort: at most about this many item placements. */
    static final long SKYLINE_PLACEMENTS = 2_000_000;
    /**
     * ... and at most this many placements times items: a placement costs more the more items there
     * are (a dive at 10^4 items takes about 20 ms here), so above 500 items the placements shrink as
     * 1/n and the skyline's time stays about flat (10^4 items: 10 dives, not 200).
     */
    static final long SKYLINE_ITEM_PLACEMENTS = 1_000_000_000;

    /**
     * The work of the exact search for these options: {@link #work(Effort, int)}'s, or, when the
     * options give a node count, that count for the first placement and for the narrowing (which
     * the fit effort does not do).
     */
    static Minimizer.Work work(Planner.Options options, int items) {
        Minimizer.Work rule = work(options.effort(), items);
        if (options.searchNodes().isEmpty()) {
            return rule;
        }
        long nodes = options.searchNodes().getAsLong();
        return new Minimizer.Work(nodes, options.effort() == Effort.FIT ? 0 : nodes, rule.firstProbeNodes());
    }

    /**
     * The work of the exact search for {@code items} items (with bytes) at an effort, in search
     * nodes. A node costs about as much as the items, so the budgets are work divided by items,
     * kept within bounds: the default narrowing about 2.5 x 10^6 item-nodes (between 2,000 and
     * 50,000 nodes), a first placement within a finite limit about 5 x 10^7 (10^4 to 10^6
     * nodes); {@code --minimize} 40 and 10 times more. The first probes get 8 nodes per item (at
     * least 512), which lets the search's first round of restarts complete.
     */
    static Minimizer.Work work(Effort effort, int items) {
        long n = Math.max(1, items);
        long probe = Math.max(512, 8 * n);
        return switch (effort) {
            case FIT -> new Minimizer.Work(clamp(50_000_000L / n, 10_000, 1_000_000), 0, probe);
            case DEFAULT -> new Minimizer.Work(clamp(50_000_000L / n, 10_000, 1_000_000),
                    clamp(2_500_000L / n, 2_000, 50_000), probe);
            case MINIMIZE -> new Minimizer.Work(clamp(500_000_000L / n, 100_000, 10_000_000),
                    clamp(100_000_000L / n, 50_000, 2_000_000), probe);
        };
    }

    /**
     * The skyline heuristic's settings in {@code auto}: its defaults, with dives and repairs cut to
     * the work allowed; one dive (its last phase's, larger area first) above {@link #SKYLINE_SEARCH_UP_TO} items.
     */
    static SkylineSolver.Settings skyline(Effort effort, int items) {
        SkylineSolver.Settings d = SkylineSolver.Settings.defaults();
        if (items > SKYLINE_SEARCH_UP_TO) {
            return new SkylineSolver.Settings(1, 0, d.seed());
        }
        if (effort == Effort.MINIMIZE) {
            return d;
        }
        long n = Math.max(1, items);
        long placements = skylinePlacements(items);
        int dives = (int) clamp(placements / n, 1, d.dives());
        int repairs = (int) clamp(placements / (20 * n), 0, d.repairs());
        return new SkylineSolver.Settings(dives, repairs, d.seed());
    }

    /** The skyline's placements in {@code auto}'s default effort for {@code items} items. */
    static long skylinePlacements(int items) {
        long n = Math.max(1, items);
        return Math.min(SKYLINE_PLACEMENTS, SKYLINE_ITEM_PLACEMENTS / n);
    }

    private static long clamp(long v, long lo, long hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    private SpaceSearch() {
    }

    /**
     * Solves one space. {@code seed}, a placement within the limit the assignment phase found
     * (first fit, largest first: greedy by size), is kept when the heuristics' best does not
     * fit or is higher, so that a space whose buffers were chosen to fit is never worse.
     */
    static Planner.SpaceOutcome solve(SpaceProblem p, Planner.Options options, Budget budget, Optional<long[]> seed) {
        int items = 0;
        for (int i = 0; i < p.size(); i++) {
            if (p.reserved(i) > 0) {
                items++;
            }
        }
        long lb = lowerBound(p);
        SolverChoice choice = options.solver();
        Effort effort = options.effort();
        if (choice.kind().isPresent() && !choice.kind().get().complete()) {
            SolverKind k = choice.kind().get();
            Outcome.Solved o = (Outcome.Solved) k.create(options.threads()).solve(p, budget);
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
        if (exactChoice || items <= BOTH_HEURISTICS_UP_TO) {
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
        if (!exactChoice && items <= SKYLINE_UP_TO && (effort != Effort.FIT || finite(p))) {
            Outcome.Solved sky = new SkylineSolver(skyline(effort, items)).improve(p, best, budget);
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
        if (!exactChoice && items > EXACT_UP_TO) {
            return done(best, kind, lb, lb, Optional.of(Optimality.Open.SIZE), budget);
        }
        ExactSolver.Settings settings = ExactSolver.Settings.defaults().searchOnly().withThreads(options.threads());
        String space = p.space() == null ? "" : p.space().name();
        Minimizer.Result r = Minimizer.minimize(p, Optional.of(best), lb, work(options, items), settings, budget,
                step -> budget.progress().bracket(space, step.lower(), step.upper(), step.event()));
        if (r.offsets().isEmpty()) {
            // nothing within the limit: the heuristics' placement goes to the admission check, which says why
            Outcome exact = r.infeasible() ? new Outcome.Infeasible(r.infeasibleReason())
                    : new Outcome.Unknown(r.stop() == Minimizer.Stop.CLOCK
                    ? "the search stopped at the time limit without a placement or a proof"
                    : r.stop() == Minimizer.Stop.INTERRUPTED
                    ? "the search was interrupted without a placement or a proof"
                    : "the search used its work budget (" + r.nodes() + " nodes) without a placement or a proof");
            return new Planner.SpaceOutcome(best.offsets(), kind, best.height(), Optional.of(exact), lb, lb,
                    Optional.of(open(r.stop())), budget.stoppedByClock());
        }
        long[] offsets = r.offsets().get();
        if (r.upper() < best.height() || !fits) {
            kind = SolverKind.EXACT;
        }
        Optional<Optimality.Open> open = r.optimal() ? Optional.empty() : Optional.of(open(r.stop()));
        return new Planner.SpaceOutcome(offsets, kind, r.upper(), Optional.empty(), lb, r.lower(), open,
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

    private static Planner.SpaceOutcome done(Outcome.Solved o, SolverKind kind, long lb, long proved,
                                             Optional<Optimality.Open> open, Budget budget) {
        Optional<Optimality.Open> why = o.height() <= proved ? Optional.empty() : open;
        if (why.isPresent() && budget.stoppedByClock()) {
            why = Optional.of(Optimality.Open.TIME_LIMIT);
        }
        if (why.isPresent()) {
            why = Optional.of(interrupted(why.get(), budget));
        }
        return new Planner.SpaceOutcome(o.offsets(), kind, o.height(), Optional.empty(), lb,
                Math.min(proved, o.height()), why, budget.stoppedByClock());
    }

    /**
     * The lower bound of every placement's height: the most reserved bytes live at one step (by
     * the one live-bytes sweep, {@link LiveBytes}), the largest item, the highest end of a fixed
     * item, rounded up to the granularity every settled placement's height is a multiple of
     * ({@link ExactSolver#granularity}). Live bytes past 2^63-1 are {@code arithmetic-overflow}
     * naming the space, whatever the solver: the plan holds the peak of live bytes (contract §1,
     * "a sum of sizes"), and host arithmetic outranks the address format.
     */
    static long lowerBound(SpaceProblem p) {
        long lb;
        try {
            lb = LiveBytes.peak(p).bytes();
        } catch (BerthException e) {
            if (e.category() != Category.ARITHMETIC_OVERFLOW || p.space() == null) {
                throw e;
            }
            Failure.ArithmeticOverflow o = (Failure.ArithmeticOverflow) e.failure();
            throw new BerthException(new Failure.ArithmeticOverflow("space " + p.space().name() + ": " + o.message(),
                    o.operation(), Facts.NONE.withSpace(p.space().name())));
        }
        for (int i = 0; i < p.size(); i++) {
            lb = Math.max(lb, p.reserved(i));
            if (p.isFixed(i)) {
                lb = Math.max(lb, Checked.saturatingAdd(p.fixedOffset(i), p.reserved(i)));
            }
        }
        long g = ExactSolver.granularity(p);
        long rem = lb % g;
        return rem == 0 ? lb : Checked.saturatingAdd(lb, g - rem);
    }
}
