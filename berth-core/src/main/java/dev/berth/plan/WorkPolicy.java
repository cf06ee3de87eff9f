package dev.berth.plan;

import dev.berth.assign.Work;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.exact.Minimizer;
import dev.berth.solve.heuristic.HeuristicSolver;
import dev.berth.solve.skyline.SkylineSolver;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Every size rule and work budget of planning, in one place, each with one name: which stages of
 * {@code auto}'s ladder run on a space of {@code n} items with bytes ({@link #ladder}, the list
 * {@link SpaceSearch} runs), how much work the skyline heuristic and the exact search get there,
 * and the assignment phase's budget. Work is counted in placements and search nodes, never in time, so that the same input
 * gives the same plan on any machine. docs/design.md's tables of these rules are checked against
 * them ({@code WorkPolicyTest}).
 *
 * <p>One size rule stays with its solver, because the exact search, which knows no planner,
 * follows it too: {@link HeuristicSolver#SIDE_BY_SIDE_FROM}, from which size best fit runs on a
 * second thread beside greedy. It changes how long the heuristics take, never what they place.
 *
 * @param effort      the effort the budgets are for
 * @param searchNodes the exact search's work per space when the options give it
 *                    ({@link Planner.Options#withSearchNodes}), in place of the effort's rule
 */
record WorkPolicy(Effort effort, OptionalLong searchNodes) {
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
    /** Above this many items, {@code auto} does not minimise (the exact search's set-up grows faster than the items). */
    static final int MINIMIZE_UP_TO = 1 << 12;
    /** The skyline heuristic's work in {@code auto}'s default effort: at most about this many item placements. */
    static final long SKYLINE_PLACEMENTS = 2_000_000;
    /**
     * ... and at most this many placements times items: a placement costs more the more items there
     * are (a dive at 10^4 items takes about 20 ms here), so above 500 items the placements shrink as
     * 1/n and the skyline's time stays about flat (10^4 items: 10 dives, not 200).
     */
    static final long SKYLINE_ITEM_PLACEMENTS = 1_000_000_000;
    /** Up to this many buffers with candidate spaces, the assignment phase searches exactly (branch and bound). */
    static final int ASSIGNMENT_SEARCH_UP_TO = 24;
    /** The first probes of the narrowing get this many nodes per item, and at least {@link #FIRST_PROBE_MIN}. */
    static final long FIRST_PROBE_PER_ITEM = 8;
    static final long FIRST_PROBE_MIN = 512;

    /**
     * Search nodes for a space of {@code n} items: {@code work / n}, kept within
     * [{@code min}, {@code max}] (a node costs about as much as the items). {@code NONE}: no search.
     */
    record PerItem(long work, long min, long max) {
        static final PerItem NONE = new PerItem(0, 0, 0);

        long at(int items) {
            return Math.max(min, Math.min(max, work / Math.max(1, items)));
        }
    }

    /** The exact search's first placement within a finite limit, when the heuristics' does not fit, by effort. */
    static PerItem fitRule(Effort effort) {
        return switch (effort) {
            case FIT, DEFAULT -> new PerItem(50_000_000L, 10_000, 1_000_000);
            case MINIMIZE -> new PerItem(500_000_000L, 100_000, 10_000_000);
        };
    }

    /** The narrowing of the bracket [lower bound, best height], by effort; none at {@link Effort#FIT}. */
    static PerItem narrowRule(Effort effort) {
        return switch (effort) {
            case FIT -> PerItem.NONE;
            case DEFAULT -> new PerItem(2_500_000L, 2_000, 50_000);
            case MINIMIZE -> new PerItem(100_000_000L, 50_000, 2_000_000);
        };
    }

    /** The policy of these options: their effort, and their node count when they give one. */
    static WorkPolicy of(Planner.Options options) {
        return new WorkPolicy(options.effort(), options.searchNodes());
    }

    /** The policy of an effort, by its own rules alone. */
    static WorkPolicy of(Effort effort) {
        return new WorkPolicy(effort, OptionalLong.empty());
    }

    /**
     * {@code auto}'s ladder, or the one a heuristic or the exact choice runs, on a space of
     * {@code items} items with bytes ({@code finiteSpace}: it has a capacity): the stages
     * {@link SpaceSearch} runs in order until one ends the search. {@code auto}: the heuristics
     * (greedy alone above {@link #BOTH_HEURISTICS_UP_TO}); the skyline up to {@link #SKYLINE_UP_TO}
     * (at the fit effort only in a finite space: in any other, what the heuristics placed within the
     * format already ended the search); the minimisation up to {@link #MINIMIZE_UP_TO}, above it the
     * bracket left open. {@code exact}: both heuristics and the minimisation, at any size.
     */
    List<SpaceSearch.Stage> ladder(SolverChoice choice, int items, boolean finiteSpace) {
        if (choice.kind().isPresent() && !choice.kind().get().complete()) {
            return List.of(new SpaceSearch.OneHeuristic(choice.kind().get()));
        }
        if (choice == SolverChoice.EXACT) {
            return List.of(new SpaceSearch.Heuristics(true), new SpaceSearch.Minimise(search(items)));
        }
        List<SpaceSearch.Stage> ladder = new ArrayList<>();
        ladder.add(new SpaceSearch.Heuristics(items <= BOTH_HEURISTICS_UP_TO));
        if (items <= SKYLINE_UP_TO && (effort != Effort.FIT || finiteSpace)) {
            ladder.add(new SpaceSearch.Skyline(skyline(items)));
        }
        ladder.add(items <= MINIMIZE_UP_TO ? new SpaceSearch.Minimise(search(items)) : new SpaceSearch.TooLarge());
        return ladder;
    }

    /**
     * The exact search's work on a space of {@code items} items, in search nodes: the effort's rules
     * ({@link #fitRule}, {@link #narrowRule}), or, when a node count is given, that count for the
     * first placement and for the narrowing (which the fit effort does not do). The first probes get
     * {@link #FIRST_PROBE_PER_ITEM} nodes per item, at least {@link #FIRST_PROBE_MIN}, which lets the
     * search's first round of restarts complete.
     */
    Minimizer.Work search(int items) {
        long probe = Math.max(FIRST_PROBE_MIN, FIRST_PROBE_PER_ITEM * Math.max(1, items));
        if (searchNodes.isPresent()) {
            long nodes = searchNodes.getAsLong();
            return new Minimizer.Work(nodes, effort == Effort.FIT ? 0 : nodes, probe);
        }
        return new Minimizer.Work(fitRule(effort).at(items), narrowRule(effort).at(items), probe);
    }

    /**
     * The skyline heuristic's settings in {@code auto} on {@code items} items: its defaults at
     * {@code --minimize}, with dives and repairs cut to {@link #skylinePlacements} otherwise; one
     * dive (its last phase's, larger area first) and no repairs above {@link #SKYLINE_SEARCH_UP_TO}.
     */
    SkylineSolver.Settings skyline(int items) {
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
        return Math.min(SKYLINE_PLACEMENTS, SKYLINE_ITEM_PLACEMENTS / Math.max(1, items));
    }

    /**
     * The assignment phase's work: each greedy order, with its repair, may look at about 10^7 held
     * reservations while trying reservations (10^8 with {@code --minimize}); the exact search, up to
     * {@link #ASSIGNMENT_SEARCH_UP_TO} buffers with candidates, 2 x 10^5 nodes (5 x 10^6), none at
     * {@link Effort#FIT}.
     */
    Work assignment() {
        return switch (effort) {
            case FIT -> new Work(10_000_000, 0, ASSIGNMENT_SEARCH_UP_TO);
            case DEFAULT -> new Work(10_000_000, 200_000, ASSIGNMENT_SEARCH_UP_TO);
            case MINIMIZE -> new Work(100_000_000, 5_000_000, ASSIGNMENT_SEARCH_UP_TO);
        };
    }

    private static long clamp(long v, long lo, long hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
