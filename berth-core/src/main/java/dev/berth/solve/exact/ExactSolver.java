package dev.berth.solve.exact;

import dev.berth.arith.Checked;
import dev.berth.solve.Budget;
import dev.berth.solve.heuristic.HeuristicSolver;
import dev.berth.solve.Outcome;
import dev.berth.solve.Solver;
import dev.berth.solve.SolverKind;
import dev.berth.solve.SpaceProblem;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A complete search for a placement within {@link SpaceProblem#limit()}: it finds one, proves
 * that none exists ({@link Outcome.Infeasible}), or stops at the budget and says so
 * ({@link Outcome.Unknown}). Deterministic: the same problem and settings give the same answer
 * (only where a time limit cuts the search depends on the machine).
 *
 * <p>Steps: zero-size items go to offset 0 (they conflict with nothing); a fixed item past the
 * limit, an item larger than the limit, or a step whose live sizes exceed the limit is
 * infeasible at once; the search's instance is set up ({@link Instance}: O(n log n) plus time
 * and memory linear in the items' section entries, polling the budget, so that a budget that
 * runs out there gives {@link Outcome.Unknown}); two fixed items that clash are infeasible;
 * the two heuristics are tried (when they fit, that is a placement);
 * then {@link CanonicalSearch} runs with several item orders, each with a node limit that doubles
 * every round (restarts), each remembering the sub-problems and search states it proved
 * infeasible ({@link FailureMemo}, {@link FailedStates}), side by side on the available
 * processors ({@link Portfolio}). Any search that completes without a placement is a proof.
 */
public final class ExactSolver implements Solver {

    /**
     * Settings: whether to try the heuristics first; the item orders to rotate through, each a
     * string of keys (W lifetime width, A area, T largest section total, Z size; see
     * {@link ItemOrder}); whether sub-problems re-rank their items with the totals of the moment;
     * whether to remember infeasible sub-problems; the node limit of the first round (0: twice
     * the number of items), doubled every round; and the number of threads the orders share (0:
     * one per available processor). The answer is the same for every number of threads
     * ({@link Portfolio}).
     */
    public record Settings(boolean heuristicsFirst, List<String> orders, boolean dynamicOrders, boolean learn,
                           long firstNodeLimit, int threads) {
        public Settings {
            orders = List.copyOf(orders);
            if (orders.isEmpty()) {
                throw new IllegalArgumentException("at least one order");
            }
            orders.forEach(ItemOrder::check);
            if (firstNodeLimit < 0) {
                throw new IllegalArgumentException("negative node limit");
            }
            if (threads < 0) {
                throw new IllegalArgumentException("negative thread count");
            }
        }

        public static Settings defaults() {
            return new Settings(true, List.of("WAT", "TAW", "TWA"), true, true, 0, 0);
        }

        /** The same settings without the heuristics (a pure search). */
        public Settings searchOnly() {
            return new Settings(false, orders, dynamicOrders, learn, firstNodeLimit, threads);
        }

        /** The same settings on {@code n} threads (0: one per available processor); the answer does not change. */
        public Settings withThreads(int n) {
            return new Settings(heuristicsFirst, orders, dynamicOrders, learn, firstNodeLimit, n);
        }
    }

    /** Problems with fewer items than this are solved on one thread (threads cost more than they bring). */
    private static final int PARALLEL_FROM = 48;

    private final Settings settings;
    private long lastNodes;

    public ExactSolver() {
        this(Settings.defaults());
    }

    public ExactSolver(Settings settings) {
        this.settings = settings;
    }

    @Override
    public SolverKind kind() {
        return SolverKind.EXACT;
    }

    /**
     * Search nodes the last call of {@link #solve} counts (0 when no search ran): the same on any
     * number of threads, unless the clock stopped the search.
     */
    public long lastNodes() {
        return lastNodes;
    }

    @Override
    public Outcome solve(SpaceProblem p, Budget budget) {
        return solve(p, budget, Long.MAX_VALUE);
    }

    /**
     * {@link #solve(SpaceProblem, Budget)} with at most {@code maxNodes} search nodes in all: past
     * them the answer is {@link Outcome.Unknown}. A node limit, unlike a time limit, gives the same
     * answer on every machine.
     */
    public Outcome solve(SpaceProblem p, Budget budget, long maxNodes) {
        return solve(p, budget, maxNodes, null);
    }

    /**
     * {@link #solve(SpaceProblem, Budget, long)} with the instance of {@code p}'s items built
     * already ({@code prebuilt}, from {@code p} at any limit; null to build it here): a
     * minimisation probes one problem at many limits and sets it up once.
     */
    Outcome solve(SpaceProblem p, Budget budget, long maxNodes, Instance prebuilt) {
        lastNodes = 0;
        long limit = p.limit();
        String past = pastTheLimit(p);
        if (past != null) {
            return new Outcome.Infeasible(past);
        }
        long step = p.granularity();
        if (step > 1 && limit % step != 0) {
            // every canonical offset and height is a multiple of step: the limit can drop to one
            p = p.withLimit(limit / step * step);
        }
        final long asked = limit;
        limit = p.limit();
        // the set-up: sections (O(n log n)), then the instance (linear in the items' section
        // entries, polling the budget), then the fixed items' clashes
        Instance.Sections sec = prebuilt == null ? Instance.sections(p) : null;
        String over = sectionOverTheLimit(prebuilt == null ? sec.total : prebuilt.sectionTotal, limit, asked, step);
        if (over != null) {
            return new Outcome.Infeasible(over);
        }
        Instance in;
        String clash;
        try {
            in = prebuilt == null ? Instance.build(sec, budget::exhausted) : prebuilt.withLimit(limit);
            clash = fixedClash(p, in, budget);
        } catch (Instance.Stopped e) {
            return new Outcome.Unknown(e.getMessage());
        }
        if (clash != null) {
            return new Outcome.Infeasible(clash);
        }
        if (settings.heuristicsFirst()) {
            for (Outcome.Solved o : HeuristicSolver.bestFitAndGreedy(p, budget, settings.threads())) {
                if (o.height() <= limit) {
                    return o;
                }
            }
        }
        AtomicBoolean[] cancel = new AtomicBoolean[settings.orders().size()];
        CanonicalSearch[] searches = searches(in, cancel, budget);
        long first = settings.firstNodeLimit() > 0 ? settings.firstNodeLimit() : Math.max(64, 2L * in.n);
        int threads = settings.threads() > 0 ? settings.threads() : Runtime.getRuntime().availableProcessors();
        if (in.n < PARALLEL_FROM) {
            threads = 1;
        }
        Portfolio.Result r = Portfolio.run(searches, cancel, first, maxNodes, threads, budget);
        lastNodes = r.nodes();
        return switch (r.status()) {
            case CanonicalSearch.SOLVED -> solved(p, in, searches[r.search()]);
            case CanonicalSearch.FAILED -> new Outcome.Infeasible("a complete search (" + lastNodes
                    + " nodes) found no placement within " + asked);
            case CanonicalSearch.STOPPED -> new Outcome.Unknown("the search stopped at the time limit after " + lastNodes
                    + " nodes, without a placement or a proof");
            default -> new Outcome.Unknown("the search stopped at its node limit (" + maxNodes
                    + " nodes) without a placement or a proof");
        };
    }

    /**
     * Why an item cannot lie below {@code p}'s limit on its own (the first such: a fixed region
     * that ends past it, or a reservation larger than it), or null when each can.
     */
    private static String pastTheLimit(SpaceProblem p) {
        long limit = p.limit();
        for (int i = 0; i < p.size(); i++) {
            long r = p.reserved(i);
            if (p.isFixed(i)) {
                long f = p.fixedOffset(i);
                if (f > limit || r > limit - f) {
                    return "fixed region " + p.name(i) + " at " + f + " (" + r
                            + " bytes) ends past the limit " + limit;
                }
            } else if (r > limit) {
                return p.name(i) + " reserves " + r + " bytes, more than the limit " + limit;
            }
        }
        return null;
    }

    /**
     * Why the reservations live at one step cannot lie below {@code limit} (the first section
     * whose total is over it; {@code asked} the limit before it was rounded down to a multiple of
     * {@code step}), or null when every section's can.
     */
    private static String sectionOverTheLimit(long[] totals, long limit, long asked, long step) {
        for (long t : totals) {
            if (t > limit) {
                // a total of 2^63-1 may be a saturated one; a lowered limit was rounded to the granularity
                return "the reservations live at one step need "
                        + (t == Long.MAX_VALUE ? "2^63-1 bytes or more" : "at least " + t + " bytes")
                        + ", more than the limit " + limit + (limit == asked ? "" : " (the limit " + asked
                        + " rounded down to a multiple of " + step + ", of which every placement's height is one)");
            }
        }
        return null;
    }

    /**
     * One search of {@code in} per order of the settings, each with its own failure memo and
     * table when they learn, stopped by its flag (set here into {@code cancel}) or the budget.
     */
    private CanonicalSearch[] searches(Instance in, AtomicBoolean[] cancel, Budget budget) {
        CanonicalSearch[] searches = new CanonicalSearch[cancel.length];
        for (int i = 0; i < cancel.length; i++) {
            FailureMemo memo = settings.learn() ? new FailureMemo(in.n) : null;
            FailedStates table = settings.learn() ? new FailedStates(tableBits(in.n)) : null;
            AtomicBoolean c = cancel[i] = new AtomicBoolean();
            searches[i] = new CanonicalSearch(in, settings.orders().get(i), settings.dynamicOrders(), memo, table,
                    () -> c.get() || budget.exhausted());
        }
        return searches;
    }

    /**
     * Two fixed items that share a step and a byte (the heuristics take fixed items as given):
     * the first fixed item (by index) that clashes with a later one, and its first such partner
     * in its list of conflicts. O(the fixed items' conflicts), polling the budget.
     */
    static String fixedClash(SpaceProblem p, Instance in, Budget budget) throws Instance.Stopped {
        Work work = new Work(budget::exhausted, () -> "the time limit ran out while checking the fixed items of "
                + in.n + " items against each other");
        for (int a = 0; a < in.n; a++) {
            if (in.fixedAt[a] < 0) {
                continue;
            }
            int[] conflicts = in.conflictsOf(a);
            work.add(conflicts.length + 1);
            for (int b : conflicts) {
                if (b > a && in.fixedAt[b] >= 0 && in.fixedAt[a] < in.fixedAt[b] + in.size[b]
                        && in.fixedAt[b] < in.fixedAt[a] + in.size[a]) {
                    return "fixed items " + p.name(in.original[a]) + " and " + p.name(in.original[b])
                            + " overlap in bytes during common steps";
                }
            }
        }
        return null;
    }

    /** The largest table of failed states: 2^16 entries (1 MiB) for small problems, up to 2^21 (32 MiB). */
    private static int tableBits(int n) {
        return n < 64 ? 16 : n < 1024 ? 20 : 21;
    }

    private static Outcome.Solved solved(SpaceProblem p, Instance in, CanonicalSearch s) {
        long[] offsets = new long[p.size()];
        for (int i = 0; i < p.size(); i++) {
            offsets[i] = p.isFixed(i) ? p.fixedOffset(i) : 0;
        }
        for (int k = 0; k < in.n; k++) {
            offsets[in.original[k]] = s.offset[k];
        }
        long height = 0;
        for (int i = 0; i < p.size(); i++) {
            height = Math.max(height, Checked.add(offsets[i], p.reserved(i)));
        }
        return new Outcome.Solved(offsets, height);
    }
}
