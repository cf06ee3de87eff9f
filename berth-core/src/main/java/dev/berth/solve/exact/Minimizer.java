package dev.berth.solve.exact;

import dev.berth.arith.Checked;
import dev.berth.solve.Budget;
import dev.berth.solve.LiveBytes;
import dev.berth.solve.Outcome;
import dev.berth.solve.SpaceProblem;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The smallest limit at which a space's items fit, or the best bracket found within the
 * budget.
 *
 * <p>The bracket starts at [max-live lower bound, best heuristic height] (the lower bound also
 * counts the largest item and the highest fixed end). Both ends are multiples of
 * {@link ExactSolver#granularity}, as every canonical height is, and only such limits are probed.
 * Then rounds of probes, every probe of a round with the same time: first the lower end itself
 * (the tightest limit, where a proof is likeliest; each proof raises the lower end by one step
 * and probes again), then a bisection of the rest of the bracket. A placement at limit c lowers
 * the upper end to its height, a proof that none fits raises the lower end above c, and a probe
 * that stops undecided sends the bisection upward (placements are easier to find higher up).
 * When a round ends with the bracket still open and nothing learned, the next one doubles the
 * time per probe. The result is optimal when the two ends meet. Probes are exact searches
 * ({@link ExactSolver}), so the outcome is deterministic up to where time limits fall.
 */
public final class Minimizer {

    /** One event of the minimisation: the bracket after it and what happened. */
    public record Step(long lower, long upper, String event) {
    }

    /**
     * The outcome: the bracket [lower, upper], the offsets of the best placement (height
     * {@code upper}), or empty when no placement within the problem's limit was found, and
     * whether upper is proved optimal.
     */
    public record Result(long lower, long upper, Optional<long[]> offsets, boolean optimal, List<Step> steps) {
        public Result {
            steps = List.copyOf(steps);
        }
    }

    private static final double FIRST_PROBE_SECONDS = 0.25;

    private Minimizer() {
    }

    /**
     * Minimises the height of {@code p} at or below {@code p.limit()}; {@code progress} sees every
     * step as it happens.
     */
    public static Result minimize(SpaceProblem p, Budget budget, ExactSolver.Settings settings,
                                  Consumer<Step> progress) {
        List<Step> steps = new ArrayList<>();
        Consumer<Step> log = s -> {
            steps.add(s);
            progress.accept(s);
        };
        long lower = lowerBound(p);
        long upper = Long.MAX_VALUE;
        long[] best = null;
        // the instance every probe searches, set up once (null when the budget ran out first)
        Instance in = null;
        String stopped = null;
        try {
            in = Instance.build(p, budget::exhausted);
        } catch (Instance.Stopped e) {
            stopped = e.getMessage();
        }
        Boolean intact = null;
        for (Outcome.Solved o : ExactSolver.heuristics(p, budget,
                p.size() >= ExactSolver.PARALLEL_HEURISTICS_FROM ? settings.threads() : 1)) {
            if (o.height() < upper && o.height() <= p.limit()) {
                if (intact == null) {
                    intact = fixedIntact(p, in, budget);
                }
                if (intact) {
                    upper = o.height();
                    best = o.offsets();
                }
            }
        }
        ExactSolver exact = new ExactSolver(settings.searchOnly());
        if (best == null) {
            Outcome o = exact.solve(p, budget, Long.MAX_VALUE, in);
            if (o instanceof Outcome.Solved s) {
                upper = s.height();
                best = s.offsets();
                log.accept(new Step(lower, upper, "exact search found a placement of height " + upper));
            } else {
                String why = o instanceof Outcome.Infeasible inf ? "no placement within " + p.limit() + ": " + inf.reason()
                        : in == null ? "no placement found: " + ((Outcome.Unknown) o).reason()
                        : "no placement found within the time limit";
                log.accept(new Step(lower, p.limit(), why));
                return new Result(Math.min(lower, p.limit()), p.limit(), Optional.empty(),
                        o instanceof Outcome.Infeasible, steps);
            }
        } else {
            log.accept(new Step(lower, upper, "heuristics: height " + upper + ", lower bound " + lower));
        }
        // heights are multiples of g: probe only those
        long g = ExactSolver.granularity(p);
        lower = ceilTo(lower, g);
        if (in == null && lower < upper) {
            // no probe can run: the bracket stays as the heuristics left it
            log.accept(new Step(lower, upper, "no probes: " + stopped));
            return new Result(lower, upper, Optional.of(best), false, steps);
        }
        double slice = FIRST_PROBE_SECONDS;
        while (lower < upper && !budget.exhausted()) {
            boolean progressMade = false;
            // the tightest limit first: if anything is provable, that is
            while (lower < upper && !budget.exhausted()) {
                Outcome o = exact.solve(p.withLimit(lower), budget.child(slice), Long.MAX_VALUE, in);
                if (o instanceof Outcome.Solved s) {
                    upper = s.height();
                    best = s.offsets();
                    progressMade = true;
                    log.accept(new Step(lower, upper, "limit " + lower + ": placement of height " + s.height()));
                } else if (o instanceof Outcome.Infeasible) {
                    lower = Checked.add(lower, g);
                    progressMade = true;
                    log.accept(new Step(lower, upper, "limit " + Checked.subtract(lower, g) + ": proved infeasible (" + exact.lastNodes()
                            + " nodes)"));
                    continue;
                } else {
                    log.accept(new Step(lower, upper, "limit " + lower + ": undecided in " + slice + " s"));
                }
                break;
            }
            long a = Checked.add(lower, g);
            long b = Checked.subtract(upper, g); // below a when nothing is left to bisect
            while (a <= b && lower < upper && !budget.exhausted()) {
                long c = Checked.multiply(a / g + (b / g - a / g) / 2, g);
                Outcome o = exact.solve(p.withLimit(c), budget.child(slice), Long.MAX_VALUE, in);
                if (o instanceof Outcome.Solved s) {
                    upper = s.height();
                    best = s.offsets();
                    b = Checked.subtract(upper, g);
                    progressMade = true;
                    log.accept(new Step(lower, upper, "limit " + c + ": placement of height " + s.height()));
                } else if (o instanceof Outcome.Infeasible) {
                    lower = Checked.add(c, g);
                    a = lower;
                    progressMade = true;
                    log.accept(new Step(lower, upper, "limit " + c + ": proved infeasible (" + exact.lastNodes()
                            + " nodes)"));
                } else {
                    a = Checked.add(c, g);
                    log.accept(new Step(lower, upper, "limit " + c + ": undecided in " + slice + " s"));
                }
            }
            if (!progressMade) {
                slice *= 2;
            }
        }
        boolean optimal = lower >= upper;
        log.accept(new Step(Math.min(lower, upper), upper, optimal ? "optimal: " + upper
                : "stopped: the optimum is in [" + lower + ", " + upper + "]"));
        return new Result(Math.min(lower, upper), upper, Optional.of(best), optimal, steps);
    }

    private static long ceilTo(long v, long g) {
        long r = v % g;
        return r == 0 ? v : Checked.add(v, g - r);
    }

    /** Max-live bytes over the steps, the largest item, and the highest fixed end. O(n log n). */
    public static long lowerBound(SpaceProblem p) {
        long lb = LiveBytes.peak(p).bytes();
        for (int i = 0; i < p.size(); i++) {
            lb = Math.max(lb, p.reserved(i));
            if (p.isFixed(i)) {
                lb = Math.max(lb, Checked.saturatingAdd(p.fixedOffset(i), p.reserved(i)));
            }
        }
        return lb;
    }

    /**
     * Whether the heuristics' placement keeps the fixed items apart (the heuristics keep fixed
     * items in place but do not check them against each other): the fixed items never move, so
     * this holds for one placement exactly when no two fixed items clash. False also when the
     * budget ran out before the check finished, or before the instance was built ({@code in} null)
     * while there are fixed items.
     */
    private static boolean fixedIntact(SpaceProblem p, Instance in, Budget budget) {
        boolean anyFixed = false;
        for (int i = 0; i < p.size(); i++) {
            anyFixed |= p.isFixed(i) && p.reserved(i) > 0;
        }
        if (!anyFixed) {
            return true;
        }
        if (in == null) {
            return false;
        }
        try {
            return ExactSolver.fixedClash(p, in, budget) == null;
        } catch (Instance.Stopped e) {
            return false;
        }
    }
}
