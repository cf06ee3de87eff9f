package dev.berth.solve.exact;

import dev.berth.arith.Checked;
import dev.berth.solve.Budget;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;

import java.util.ArrayList;
import dev.berth.solve.heuristic.HeuristicSolver;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The smallest height at which a space's items fit within its limit, or the best bracket found
 * within a work budget.
 *
 * <p>The bracket starts at [lower bound, height of the starting placement]. Both ends are
 * multiples of {@link SpaceProblem#granularity}, as every canonical height is, and only such
 * limits are probed. When the starting placement does not fit the limit (or there is none), an
 * exact search at the limit comes first, with its own node budget ({@link Work#fitNodes}).
 * Then rounds of probes, every probe of a round with the same node limit: first the lower end
 * itself (the tightest limit, where a proof is likeliest; each proof raises the lower end by
 * one step and probes again), then a bisection of the rest of the bracket. A placement at limit
 * c lowers the upper end to its height, a proof that none fits raises the lower end above c,
 * and a probe that stops undecided sends the bisection upward (placements are easier to find
 * higher up). A round that learns nothing doubles the node limit of the next one. The
 * narrowing stops when the ends meet (optimal) or its nodes ({@link Work#searchNodes}) are
 * spent.
 *
 * <p>The instance every probe searches is set up once ({@link Instance}); when it cannot be (it
 * would pass the instance's entry limit), no probe runs and the bracket stays as the start left
 * it ({@link Stop#NOT_SET_UP}).
 *
 * <p>Every limit is a number of search nodes, and the node counts do not depend on the threads
 * ({@link ExactSolver#lastNodes}), so the same problem, start and work give the same result on
 * any machine. The {@link Budget}'s clock only stops a search that runs too long; the result
 * then says so ({@link Stop#CLOCK}).
 */
public final class Minimizer {

    /** One event of the minimisation: the bracket after it and what happened. */
    public record Step(long lower, long upper, String event) {
    }

    /** Why the bracket is still open at the end. */
    public enum Stop {
        /** It is not: the ends met, or nothing fits within the limit. */
        NONE,
        /** The work budget (search nodes) ran out. */
        WORK,
        /** The budget's clock stopped a search first: the result may differ on another machine. */
        CLOCK,
        /** The exact search could not be set up: the instance would pass its entry limit. */
        NOT_SET_UP,
        /** The budget's listener interrupted it ({@link dev.berth.solve.Progress#interrupted()}: Ctrl-C). */
        INTERRUPTED
    }

    /** Whether the clock or the listener's interrupt stopped a search under {@code budget}: no probe goes on. */
    private static boolean halted(Budget budget) {
        return budget.stoppedByClock() || budget.stoppedByInterrupt();
    }

    /** Why {@link #halted} stopped the minimisation, and the words its last step says it in. */
    private static Stop haltStop(Budget budget) {
        return budget.stoppedByInterrupt() ? Stop.INTERRUPTED : Stop.CLOCK;
    }

    private static String haltWords(Budget budget) {
        return budget.stoppedByInterrupt() ? "by the interrupt" : "at the time limit";
    }

    /**
     * How much searching a minimisation may do, in search nodes: {@code fitNodes} for a first
     * placement within the limit when the start does not fit, {@code searchNodes} for narrowing
     * the bracket, and {@code firstProbeNodes} for each probe of the first round (doubled after
     * every round that learns nothing). Each probe is charged at least {@link #PROBE_NODES} nodes
     * for its set-up.
     */
    public record Work(long fitNodes, long searchNodes, long firstProbeNodes) {
        public Work {
            if (fitNodes < 0 || searchNodes < 0 || firstProbeNodes < 1) {
                throw new IllegalArgumentException("negative work or an empty first probe");
            }
        }

        /** No limit on the nodes: only the budget's clock stops the search. */
        public static Work unbounded() {
            return new Work(Long.MAX_VALUE, Long.MAX_VALUE, 1024);
        }
    }

    /** The nodes a probe is charged at least: its set-up costs something even when the search is short. */
    public static final long PROBE_NODES = 16;

    /**
     * The outcome: the bracket [lower, upper]; the offsets of the best placement (height
     * {@code upper}), or empty when no placement within the problem's limit was found; whether
     * upper is proved optimal; whether the search proved that nothing fits the limit
     * ({@code infeasible}, with the proof's reason in {@code infeasibleReason}); why the bracket
     * is open; the nodes counted; every step.
     */
    public record Result(long lower, long upper, Optional<long[]> offsets, boolean optimal, boolean infeasible,
                         String infeasibleReason, Stop stop, long nodes, List<Step> steps) {
        public Result {
            steps = List.copyOf(steps);
        }
    }

    private Minimizer() {
    }

    /**
     * Minimises the height of {@code p} at or below {@code p.limit()}, starting from the heuristics
     * (best fit and greedy), with no node limit: only the budget's clock stops it.
     */
    public static Result minimize(SpaceProblem p, Budget budget, ExactSolver.Settings settings,
                                  Consumer<Step> progress) {
        Outcome.Solved start = null;
        for (Outcome.Solved o : HeuristicSolver.bestFitAndGreedy(p, budget, settings.threads())) {
            if (start == null || o.height() < start.height()) {
                start = o;
            }
        }
        if (start != null && !fixedIntact(p, start.offsets())) {
            start = null;
        }
        return minimize(p, Optional.ofNullable(start), p.lowerBound(), Work.unbounded(), settings.searchOnly(), budget,
                progress);
    }

    /**
     * Minimises the height of {@code p} at or below {@code p.limit()}.
     *
     * @param start      the best placement known (it may end past the limit, then it only counts as
     *                   "not good enough"); its fixed items must be where the problem fixes them
     * @param lowerBound a lower bound of every placement's height ({@link SpaceProblem#lowerBound},
     *                   or any lower one); rounded up to the granularity here
     * @param settings   the exact search's settings (heuristics first or not, orders, threads)
     * @param progress   sees every step as it happens
     */
    public static Result minimize(SpaceProblem p, Optional<Outcome.Solved> start, long lowerBound, Work work,
                                  ExactSolver.Settings settings, Budget budget, Consumer<Step> progress) {
        List<Step> steps = new ArrayList<>();
        Consumer<Step> log = s -> {
            steps.add(s);
            progress.accept(s);
        };
        long g = p.granularity();
        // heights are multiples of g: the lower end is one, and only multiples are probed
        long lower = Checked.saturatingAlignUp(lowerBound, g);
        long upper = Long.MAX_VALUE;
        long[] best = null;
        long nodes = 0;
        ExactSolver exact = new ExactSolver(settings);
        // the instance every probe searches, set up once (null when it cannot be, or the clock stopped it)
        Instance in = null;
        String notSetUp = null;
        try {
            in = Instance.build(p, budget::exhausted);
        } catch (Instance.Stopped e) {
            notSetUp = e.getMessage();
        }
        if (start.isPresent() && start.get().height() <= p.limit()) {
            upper = start.get().height();
            best = start.get().offsets();
            log.accept(new Step(Math.min(lower, upper), upper, "start: height " + upper + ", lower bound " + lower));
        } else {
            Outcome o = exact.solve(p, budget, work.fitNodes(), in);
            nodes = Checked.saturatingAdd(nodes, exact.lastNodes());
            if (o instanceof Outcome.Solved s) {
                upper = s.height();
                best = s.offsets();
                log.accept(new Step(Math.min(lower, upper), upper, "exact search at the limit " + p.limit()
                        + ": a placement of height " + upper + " (" + exact.lastNodes() + " nodes)"));
            } else {
                boolean proof = o instanceof Outcome.Infeasible;
                String reason = o instanceof Outcome.Infeasible inf ? inf.reason() : ((Outcome.Unknown) o).reason();
                Stop stop = proof ? Stop.NONE : halted(budget) ? haltStop(budget)
                        : in == null ? Stop.NOT_SET_UP : Stop.WORK;
                log.accept(new Step(Math.min(lower, p.limit()), p.limit(), proof ? "no placement within " + p.limit()
                        + ": " + reason : "no placement within " + p.limit() + " found: " + reason));
                return new Result(Math.min(lower, p.limit()), p.limit(), Optional.empty(), false, proof,
                        proof ? reason : "", stop, nodes, steps);
            }
        }
        if (in == null && lower < upper) {
            // no probe can run: the bracket stays as the start left it
            boolean clock = halted(budget);
            log.accept(new Step(lower, upper, "no probes: " + notSetUp));
            return new Result(lower, upper, Optional.of(best), false, false, "", clock ? haltStop(budget)
                    : Stop.NOT_SET_UP, nodes, steps);
        }
        long remaining = Math.max(0, work.searchNodes());
        long slice = work.firstProbeNodes();
        boolean clock = false;
        while (lower < upper && remaining > 0 && !clock) {
            boolean progressMade = false;
            // the tightest limit first: if anything is provable, that is
            while (lower < upper && remaining > 0 && !clock) {
                Outcome o = exact.solve(p.withLimit(lower), budget, Math.min(slice, remaining), in);
                long used = Math.max(exact.lastNodes(), PROBE_NODES);
                remaining -= Math.min(remaining, used);
                nodes = Checked.saturatingAdd(nodes, exact.lastNodes());
                if (o instanceof Outcome.Solved s) {
                    upper = s.height();
                    best = s.offsets();
                    progressMade = true;
                    log.accept(new Step(lower, upper, "limit " + lower + ": a placement of height " + upper));
                } else if (o instanceof Outcome.Infeasible) {
                    long proved = lower;
                    lower = Checked.add(lower, g);
                    progressMade = true;
                    log.accept(new Step(Math.min(lower, upper), upper, "limit " + proved + ": proved infeasible ("
                            + exact.lastNodes() + " nodes)"));
                    continue;
                } else {
                    clock = halted(budget);
                    log.accept(new Step(lower, upper, "limit " + lower + ": undecided "
                            + (clock ? haltWords(budget) : "in " + Math.min(slice, used) + " nodes")));
                }
                break;
            }
            long a = Checked.add(lower, g);
            long b = upper - g; // below a when nothing is left to bisect
            while (a <= b && lower < upper && remaining > 0 && !clock) {
                long c = Checked.multiply(a / g + (b / g - a / g) / 2, g);
                Outcome o = exact.solve(p.withLimit(c), budget, Math.min(slice, remaining), in);
                long used = Math.max(exact.lastNodes(), PROBE_NODES);
                remaining -= Math.min(remaining, used);
                nodes = Checked.saturatingAdd(nodes, exact.lastNodes());
                if (o instanceof Outcome.Solved s) {
                    upper = s.height();
                    best = s.offsets();
                    b = upper - g;
                    progressMade = true;
                    log.accept(new Step(lower, upper, "limit " + c + ": a placement of height " + upper));
                } else if (o instanceof Outcome.Infeasible) {
                    lower = Checked.add(c, g);
                    a = lower;
                    progressMade = true;
                    log.accept(new Step(Math.min(lower, upper), upper, "limit " + c + ": proved infeasible ("
                            + exact.lastNodes() + " nodes)"));
                } else {
                    clock = halted(budget);
                    a = Checked.add(c, g);
                    log.accept(new Step(lower, upper, "limit " + c + ": undecided "
                            + (clock ? haltWords(budget) : "in " + Math.min(slice, used) + " nodes")));
                }
            }
            if (!progressMade) {
                slice = slice > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : slice * 2;
            }
        }
        boolean optimal = lower >= upper;
        lower = Math.min(lower, upper);
        Stop stop = optimal ? Stop.NONE : clock ? haltStop(budget) : Stop.WORK;
        log.accept(new Step(lower, upper, optimal ? "optimal: " + upper
                : "stopped " + (clock ? haltWords(budget) : "with the work budget spent") + ": the optimum is in ["
                + lower + ", " + upper + "]"));
        return new Result(lower, upper, Optional.of(best), optimal, false, "", stop, nodes, steps);
    }

    /**
     * True when no two fixed items of {@code offsets} share a step and a byte (the heuristics keep
     * fixed items in place but do not check them against each other). The fixed items never move,
     * so this holds for one placement exactly when no two fixed items clash; false also when the
     * instance cannot be set up while there are fixed items.
     */
    public static boolean fixedIntact(SpaceProblem p, long[] offsets) {
        boolean anyFixed = false;
        for (int i = 0; i < p.size(); i++) {
            anyFixed |= p.isFixed(i) && p.reserved(i) > 0;
        }
        if (!anyFixed) {
            return true;
        }
        try {
            Instance in = Instance.build(p, () -> false);
            return ExactSolver.fixedClash(p, in, Budget.unlimited()) == null;
        } catch (Instance.Stopped e) {
            return false;
        }
    }
}
