package dev.berth.plan;

import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.solve.Progress;
import dev.berth.solve.SolverChoice;
import dev.berth.solve.SolverKind;
import dev.berth.solve.SpaceProblem;
import dev.berth.solve.exact.BruteForce;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Generation;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Minimisation through the planner: on small random workloads (a logical space and a finite
 * local one, mixed alignments, fixed regions) {@code auto} and {@code exact} reach the brute
 * force's smallest height in every space and say it is proved; a heuristic says it proved
 * nothing unless it met the lower bound; generation-time allocations sit above the minimised
 * height and the lower bound follows them; no search runs when the heuristics meet the lower
 * bound; a space larger than {@code auto}'s search sizes is left open saying so; a search the
 * clock cuts is reported as time-limited. The validator passes every plan (the planner checks).
 */
class PlannerMinimizeTest {
    private static final long[] ALIGNS = {1, 1, 1, 2, 3, 4};
    private static final AddressFormat WIDE = new AddressFormat("wide", (1L << 40) - 1, EndConvention.EXCLUSIVE);
    private static final AddressFormat NARROW = new AddressFormat("narrow", 255, EndConvention.EXCLUSIVE);

    private static Workload small(SplittableRandom rnd, Target t) {
        List<BufferSpec> bs = new ArrayList<>();
        int steps = 2 + rnd.nextInt(5);
        int n = 2 + rnd.nextInt(9);
        for (int i = 0; i < n; i++) {
            int f = rnd.nextInt(steps);
            int l = f + rnd.nextInt(steps - f);
            long size = rnd.nextInt(8) == 0 ? 0 : 1 + rnd.nextInt(9);
            bs.add(new BufferSpec("b" + i, size, t.space(rnd.nextBoolean() ? "local" : "global", "test"),
                    ALIGNS[rnd.nextInt(ALIGNS.length)], new Lifetime(f, l), Optional.empty()));
        }
        List<FixedRegion> fx = new ArrayList<>();
        if (rnd.nextInt(4) == 0) {
            fx.add(new FixedRegion("fx", t.space("local", "test"), rnd.nextInt(6), 1 + rnd.nextInt(4),
                    new Lifetime(0, steps - 1)));
        }
        return new Workload("small", bs, fx);
    }

    /** The brute force's smallest height of {@code space}'s buffers and fixed regions. */
    private static long optimum(Target t, Workload w, String space) {
        SpaceProblem p = SpacePlan.problem(t.spaces().get(space), PlannerRandomTest.items(w, space));
        // no height above the sum of everything (plus the highest fixed offset) is ever needed
        long cap = 0;
        for (int i = 0; i < p.size(); i++) {
            cap += p.reserved(i) + p.alignment(i) + (p.isFixed(i) ? p.fixedOffset(i) : 0);
        }
        return BruteForce.optimum(p.withLimit(Math.min(p.limit(), cap)));
    }

    @ParameterizedTest
    @EnumSource(value = SolverChoice.class, names = {"AUTO", "EXACT"})
    void searchingChoicesReachAndProveTheBruteForceOptimum(SolverChoice choice) {
        SplittableRandom rnd = new SplittableRandom(2026_12_01L + choice.ordinal());
        int planned = 0;
        int aboveBound = 0;
        for (int k = 0; k < 200; k++) {
            Target t = Targets.two(WIDE, 1, NARROW, ALIGNS[rnd.nextInt(ALIGNS.length)], 12 + rnd.nextInt(30),
                    Optional.empty());
            Workload w = small(rnd, t);
            Plan plan;
            try {
                plan = Planner.plan(t, w, new Planner.Options(choice, 30)).plan();
            } catch (BerthException e) {
                // the local space does not fit: the brute force agrees
                assertThat(optimum(t, w, "local")).as("workload %d: %s", k, e.getMessage()).isEqualTo(-1);
                continue;
            }
            planned++;
            assertThat(PlanValidator.validate(plan).valid()).isTrue();
            for (String space : List.of("global", "local")) {
                SpaceMetrics m = plan.spaces().get(space);
                Optimality o = m.optimality().orElseThrow();
                long opt = optimum(t, w, space);
                assertThat(m.highWater()).as("workload %d, %s: %s", k, space, w).isEqualTo(opt);
                assertThat(o.optimal()).as("workload %d, %s", k, space).isTrue();
                assertThat(o.lowerBound()).isEqualTo(opt);
                assertThat(o.timeLimited()).isFalse();
                if (o.proof() == Optimality.Proof.SEARCH) {
                    aboveBound++;
                    assertThat(m.peakLive()).isLessThan(m.highWater());
                }
                if (choice == SolverChoice.EXACT) {
                    assertThat(o.solver()).isEqualTo(SolverKind.EXACT);
                }
            }
        }
        assertThat(planned).isGreaterThan(130);
        assertThat(aboveBound).as("optima above the lower bound, proved by search").isPositive();
    }

    @ParameterizedTest
    @EnumSource(value = SolverChoice.class, names = {"GREEDY", "BEST_FIT", "SKYLINE"})
    void aHeuristicSaysWhatItDidNotProve(SolverChoice choice) {
        SplittableRandom rnd = new SplittableRandom(99);
        int open = 0;
        for (int k = 0; k < 200; k++) {
            Target t = Targets.two(WIDE, 1, NARROW, 1, 255, Optional.empty());
            Workload w = small(rnd, t);
            Plan plan = Planner.plan(t, w, new Planner.Options(choice, 30)).plan();
            for (SpaceMetrics m : plan.spaces().values()) {
                Optimality o = m.optimality().orElseThrow();
                assertThat(o.solver()).isEqualTo(choice.kind().orElseThrow());
                if (o.optimal()) {
                    assertThat(o.proof()).isEqualTo(Optimality.Proof.LOWER_BOUND);
                } else {
                    open++;
                    assertThat(o.open()).contains(Optimality.Open.HEURISTIC);
                    assertThat(o.lowerBound()).isLessThan(m.highWater());
                }
            }
        }
        assertThat(open).isPositive();
    }

    @Test
    void generationSitsAboveTheMinimisedHeightAndTheLowerBoundFollowsIt() {
        SplittableRandom rnd = new SplittableRandom(3);
        // instructions of 7 bytes per step at alignment 5 in global: above everything, 5-aligned
        Generation gen = new Generation(Optional.empty(), Optional.of(new Generation.Instruction("global", 7, 5)));
        int proved = 0;
        for (int k = 0; k < 150; k++) {
            Target t = Targets.two(WIDE, 1, NARROW, 1, 200, Optional.of(gen));
            Workload w = small(rnd, t);
            Plan plan = Planner.plan(t, w, Planner.Options.defaults()).plan();
            SpaceMetrics g = plan.spaces().get("global");
            long opt = optimum(t, w, "global");
            long steps = w.steps();
            long expected = (opt + 4) / 5 * 5 + (7 * steps + 4) / 5 * 5;
            assertThat(g.highWater()).as("workload %d", k).isEqualTo(expected);
            Optimality o = g.optimality().orElseThrow();
            assertThat(o.optimal()).isTrue();
            assertThat(o.lowerBound()).isEqualTo(expected);
            proved++;
        }
        assertThat(proved).isEqualTo(150);
    }

    /** Counts the searches' polls of their budget and the minimiser's bracket events (each exact search reports one). */
    private static final class Counting implements Progress {
        final AtomicInteger polls = new AtomicInteger();
        final AtomicInteger brackets = new AtomicInteger();

        @Override
        public void searching(double elapsedSeconds, double limitSeconds) {
            polls.incrementAndGet();
        }

        @Override
        public void bracket(String space, long lower, long upper, String event) {
            brackets.incrementAndGet();
        }
    }

    @Test
    void noSearchRunsWhenTheHeuristicsMeetTheLowerBound() {
        Target t = Targets.two(WIDE, 1, NARROW, 1, 255, Optional.empty());
        Space g = t.space("global", "test");
        Workload w = new Workload("chain", List.of(
                new BufferSpec("a", 40, g, 1, new Lifetime(0, 1), Optional.empty()),
                new BufferSpec("b", 30, g, 1, new Lifetime(1, 2), Optional.empty()),
                new BufferSpec("c", 50, g, 1, new Lifetime(2, 3), Optional.empty())), List.of());
        Counting c = new Counting();
        Plan plan = Planner.plan(t, w, Planner.Options.defaults().withProgress(c)).plan();
        Optimality o = plan.spaces().get("global").optimality().orElseThrow();
        assertThat(o.proof()).isEqualTo(Optimality.Proof.LOWER_BOUND);
        assertThat(o.solver()).isIn(SolverKind.BEST_FIT, SolverKind.GREEDY);
        assertThat(plan.spaces().get("global").highWater()).isEqualTo(80);
        assertThat(c.brackets.get()).isZero();
        assertThat(c.polls.get()).isZero();
    }

    /** {@code n} buffers with short random lifetimes and sizes 64 B to 64 KiB in {@code space}. */
    private static Workload synthetic(Space space, int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<BufferSpec> bs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            bs.add(new BufferSpec("t" + i, 64 + rnd.nextInt(65536), space, 1,
                    new Lifetime(i, i + rnd.nextInt(rnd.nextInt(10) == 0 ? 60 : 4)), Optional.empty()));
        }
        return new Workload("synthetic", bs, List.of());
    }

    @Test
    void aSpaceAboveAutosSearchSizesIsLeftOpenSayingSo() {
        Target t = Targets.two(WIDE, 1, NARROW, 1, 255, Optional.empty());
        Counting c = new Counting();
        Workload w = synthetic(t.space("global", "test"), WorkPolicy.SKYLINE_UP_TO + 1, 11);
        Plan plan = Planner.plan(t, w, Planner.Options.defaults().withProgress(c)).plan();
        SpaceMetrics m = plan.spaces().get("global");
        Optimality o = m.optimality().orElseThrow();
        assertThat(c.brackets.get()).as("no exact search above %d items", WorkPolicy.MINIMIZE_UP_TO).isZero();
        assertThat(c.polls.get()).as("no skyline search above %d items", WorkPolicy.SKYLINE_UP_TO).isZero();
        assertThat(o.solver()).isIn(SolverKind.BEST_FIT, SolverKind.GREEDY);
        assertThat(o.proof()).as("the heuristics meet the lower bound on this seed: pick another").isEqualTo(
                Optimality.Proof.OPEN);
        assertThat(o.open()).contains(Optimality.Open.SIZE);
        assertThat(o.lowerBound()).isEqualTo(m.peakLive());
    }

    /**
     * Copies of a five-buffer gadget, each on two steps of its own: a 6 at step 1; a 3 and a 5 at
     * steps 0-1; a 3 and a 4 at step 0. The lower bound is 15 (step 0). Greedy by size and best
     * fit place the 6, then the 5 above it, then the 4 below the 5, and the two 3s find no gap:
     * 17. One skyline dive, larger area first, places the 5, the 6 on it, the 4 and the 3 of step
     * 0 over the 5, then the other 3 at 12: 15. Each copy is placed as it would be alone.
     */
    private static Workload gadgets(Space space, int copies) {
        List<BufferSpec> bs = new ArrayList<>();
        long[] sizes = {6, 3, 5, 3, 4};
        int[] first = {1, 0, 0, 0, 0};
        int[] last = {1, 1, 1, 0, 0};
        for (int c = 0; c < copies; c++) {
            for (int j = 0; j < sizes.length; j++) {
                bs.add(new BufferSpec("g" + c + "_" + j, sizes[j], space, 1,
                        new Lifetime(2 * c + first[j], 2 * c + last[j]), Optional.empty()));
            }
        }
        return new Workload("gadgets", bs, List.of());
    }

    @Test
    void aboveTheSkylineSearchSizeAutoRunsOneDiveAndItIsUsed() {
        Target t = Targets.two(WIDE, 1, NARROW, 1, 255, Optional.empty());
        int copies = WorkPolicy.SKYLINE_SEARCH_UP_TO / 5 + 1;
        Workload w = gadgets(t.space("global", "test"), copies);
        assertThat(5 * copies).isBetween(WorkPolicy.SKYLINE_SEARCH_UP_TO + 1, WorkPolicy.SKYLINE_UP_TO);
        for (SolverChoice heuristic : List.of(SolverChoice.GREEDY, SolverChoice.BEST_FIT)) {
            Plan h = Planner.plan(t, w, Planner.Options.defaults().withSolver(heuristic)).plan();
            assertThat(h.spaces().get("global").highWater()).as("%s", heuristic).isEqualTo(17);
        }
        Plan plan = Planner.plan(t, w, Planner.Options.defaults()).plan();
        SpaceMetrics m = plan.spaces().get("global");
        Optimality o = m.optimality().orElseThrow();
        assertThat(m.highWater()).isEqualTo(15);
        assertThat(o.solver()).isEqualTo(SolverKind.SKYLINE);
        assertThat(o.proof()).isEqualTo(Optimality.Proof.LOWER_BOUND);
        assertThat(PlanValidator.validate(plan).valid()).isTrue();
        // the same plan again, offset for offset
        Plan again = Planner.plan(t, w, Planner.Options.defaults()).plan();
        assertThat(again).isEqualTo(plan);
    }

    @Test
    void aSearchTheClockCutsIsReportedAsTimeLimited() {
        Target t = Targets.two(WIDE, 1, NARROW, 1, 255, Optional.empty());
        Space g = t.space("global", "test");
        SplittableRandom rnd = new SplittableRandom(8);
        List<BufferSpec> bs = new ArrayList<>();
        for (int i = 0; i < 80; i++) {
            int f = rnd.nextInt(40);
            bs.add(new BufferSpec("d" + i, 1 + rnd.nextInt(1000), g, 1, new Lifetime(f, f + rnd.nextInt(12)),
                    Optional.empty()));
        }
        Workload w = new Workload("dense", bs, List.of());
        Counting c = new Counting();
        Plan unhurried = Planner.plan(t, w, Planner.Options.defaults().withProgress(c)).plan();
        Optimality calm = unhurried.spaces().get("global").optimality().orElseThrow();
        assertThat(calm.timeLimited()).isFalse();
        assertThat(c.polls.get()).as("the heuristics do not meet the bound here: a search ran").isPositive();
        // a microsecond: the heuristics finish (80 items: fewer than they place between looks at the clock),
        // every search stops at once
        Plan hurried = Planner.plan(t, w, Planner.Options.defaults().withTimeLimit(1e-6)).plan();
        Optimality o = hurried.spaces().get("global").optimality().orElseThrow();
        assertThat(o.timeLimited()).isTrue();
        assertThat(o.proof()).isEqualTo(Optimality.Proof.OPEN);
        assertThat(o.open()).contains(Optimality.Open.TIME_LIMIT);
        assertThat(hurried.spaces().get("global").highWater())
                .isGreaterThanOrEqualTo(unhurried.spaces().get("global").highWater());
    }

    /**
     * The heuristics look at the clock as they go: past the time limit, the items not yet placed go
     * on top, the plan (validated by the planner) says the clock stopped it, and it is no lower
     * than the unhurried one.
     */
    @ParameterizedTest
    @EnumSource(value = SolverChoice.class, names = {"GREEDY", "BEST_FIT", "AUTO"})
    void theHeuristicsStopAtTheTimeLimit(SolverChoice choice) {
        Target t = Targets.two(WIDE, 1, NARROW, 1, 255, Optional.empty());
        Workload w = synthetic(t.space("global", "test"), 20_000, 5);
        Plan unhurried = Planner.plan(t, w, new Planner.Options(choice, 600)).plan();
        Optimality calm = unhurried.spaces().get("global").optimality().orElseThrow();
        assertThat(calm.timeLimited()).isFalse();
        Plan hurried = Planner.plan(t, w, new Planner.Options(choice, 1e-6)).plan();
        SpaceMetrics m = hurried.spaces().get("global");
        Optimality o = m.optimality().orElseThrow();
        assertThat(o.timeLimited()).isTrue();
        assertThat(o.open()).contains(Optimality.Open.TIME_LIMIT);
        // nearly everything stacked: far above the unhurried plan
        assertThat(m.highWater()).isGreaterThan(2 * unhurried.spaces().get("global").highWater());
        assertThat(PlanValidator.validate(hurried).valid()).isTrue();
    }

    @Test
    void theLowerBoundHoldsAtTheLastStepAndOverflowsPastTwoToThe63() {
        Target t = Targets.two(WIDE, 1, NARROW, 1, 255, Optional.empty());
        Space g = t.space("global", "test");
        int last = Integer.MAX_VALUE;
        Workload w = new Workload("edge", List.of(
                new BufferSpec("a", 30, g, 1, new Lifetime(last - 1, last), Optional.empty()),
                new BufferSpec("b", 20, g, 1, new Lifetime(last, last), Optional.empty()),
                new BufferSpec("c", 40, g, 1, new Lifetime(0, last - 2), Optional.empty())), List.of());
        SpaceProblem p = SpacePlan.problem(g, PlannerRandomTest.items(w, "global"));
        assertThat(p.lowerBound()).isEqualTo(50);
        // live bytes past 2^63-1 are arithmetic-overflow, naming the space when there is one
        SpaceProblem huge = new SpaceProblem(null, new String[]{"x", "y"}, new long[]{Long.MAX_VALUE - 1, 5},
                new long[]{1, 1}, new int[]{0, 0}, new int[]{1, 1}, new long[]{-1, -1}, Long.MAX_VALUE);
        assertThatThrownBy(() -> huge.lowerBound()).isInstanceOfSatisfying(BerthException.class,
                e -> assertThat(e.category()).isEqualTo(Category.ARITHMETIC_OVERFLOW)).hasMessageContaining("pass 2^63-1");
        SpaceProblem named = SpacePlan.problem(g, PlannerRandomTest.items(new Workload("huge", List.of(
                new BufferSpec("x", Long.MAX_VALUE - 1, g, 1, new Lifetime(0, 1), Optional.empty()),
                new BufferSpec("y", 5, g, 1, new Lifetime(0, 1), Optional.empty())), List.of()), "global"));
        assertThatThrownBy(() -> named.lowerBound()).isInstanceOfSatisfying(BerthException.class,
                e -> assertThat(e.failure().facts().space()).contains("global")).hasMessageStartingWith(
                "arithmetic-overflow: space global: the reserved bytes live at step 0 pass 2^63-1");
    }

    @Test
    void theWorkRuleGrowsNoFasterThanTheItemsAndMinimizeDoesMore() {
        long previous = Long.MAX_VALUE;
        for (int n : new int[]{1, 10, 100, 1000, WorkPolicy.MINIMIZE_UP_TO}) {
            var d = WorkPolicy.of(Effort.DEFAULT).search(n);
            var m = WorkPolicy.of(Effort.MINIMIZE).search(n);
            var f = WorkPolicy.of(Effort.FIT).search(n);
            assertThat(f.searchNodes()).isZero();
            assertThat(m.searchNodes()).isGreaterThan(d.searchNodes());
            assertThat(m.fitNodes()).isGreaterThan(d.fitNodes());
            // nodes times items (the work) stays bounded
            assertThat(d.searchNodes() * n).isLessThanOrEqualTo(Math.max(2_500_000L, 50_000L * n));
            assertThat(d.searchNodes()).isLessThanOrEqualTo(previous);
            previous = d.searchNodes();
            var sky = WorkPolicy.of(Effort.DEFAULT).skyline(n);
            assertThat((long) sky.dives() * n).isLessThanOrEqualTo(Math.max(WorkPolicy.SKYLINE_PLACEMENTS, 1000L * n));
            // the skyline's placements times items stays bounded too (one dive at least)
            assertThat((long) sky.dives() * n * n).isLessThanOrEqualTo(
                    Math.max(WorkPolicy.SKYLINE_ITEM_PLACEMENTS, (long) n * n));
        }
        // above the skyline's search size, one dive and no repairs at every effort
        for (int n : new int[]{WorkPolicy.SKYLINE_SEARCH_UP_TO + 1, 20_000, WorkPolicy.SKYLINE_UP_TO}) {
            for (Effort e : Effort.values()) {
                var sky = WorkPolicy.of(e).skyline(n);
                assertThat(sky.dives()).as("%s at %d", e, n).isEqualTo(1);
                assertThat(sky.repairs()).as("%s at %d", e, n).isZero();
            }
        }
        assertThat(WorkPolicy.of(Effort.DEFAULT).skyline(WorkPolicy.SKYLINE_SEARCH_UP_TO).dives()).isGreaterThan(1);
    }

    @Test
    void searchNodesReplaceTheRulesNodeCountsAndAreChecked() {
        for (int n : new int[]{1, 213, 4096}) {
            for (Effort e : Effort.values()) {
                var rule = WorkPolicy.of(e).search(n);
                var given = WorkPolicy.of(new Planner.Options(SolverChoice.AUTO, 10).withEffort(e).withSearchNodes(7_777)).search(n);
                assertThat(given.fitNodes()).isEqualTo(7_777);
                // the fit effort narrows nothing, with or without a node count
                assertThat(given.searchNodes()).isEqualTo(e == Effort.FIT ? 0 : 7_777);
                assertThat(given.firstProbeNodes()).isEqualTo(rule.firstProbeNodes());
                assertThat(WorkPolicy.of(new Planner.Options(SolverChoice.AUTO, 10).withEffort(e)).search(n)).isEqualTo(rule);
            }
        }
        Planner.Options o = Planner.Options.defaults().withSearchNodes(5);
        // every other "with" keeps the node count
        assertThat(o.withSolver(SolverChoice.EXACT).withEffort(Effort.MINIMIZE).withTimeLimit(3).withThreads(1)
                .withProgress(Progress.NONE).searchNodes()).hasValue(5);
        for (long bad : new long[]{0, -1, Long.MIN_VALUE}) {
            assertThatThrownBy(() -> Planner.Options.defaults().withSearchNodes(bad))
                    .isInstanceOfSatisfying(BerthException.class, e -> {
                        assertThat(e.failure().category()).isEqualTo(Category.INVALID_INPUT);
                        assertThat(e.getMessage()).contains("searchNodes").contains(Long.toString(bad));
                    });
        }
        // a heuristic runs no exact search: a node count with one is refused by the call that makes the pair
        for (SolverChoice h : new SolverChoice[]{SolverChoice.GREEDY, SolverChoice.BEST_FIT, SolverChoice.SKYLINE}) {
            assertThatThrownBy(() -> o.withSolver(h)).isInstanceOfSatisfying(BerthException.class, e -> {
                assertThat(e.failure().category()).isEqualTo(Category.INVALID_INPUT);
                assertThat(e.getMessage()).contains("searchNodes").contains(h.id());
            });
            Planner.Options heuristic = Planner.Options.defaults().withSolver(h);
            assertThatThrownBy(() -> heuristic.withSearchNodes(5)).isInstanceOfSatisfying(BerthException.class,
                    e -> assertThat(e.getMessage()).contains("searchNodes").contains(h.id()));
            // the effort also sets the assignment phase's work, so it stays
            assertThat(heuristic.withEffort(Effort.MINIMIZE).effort()).isEqualTo(Effort.MINIMIZE);
        }
    }

    /**
     * A node count is the search's whole work: too few leave the bracket open, saying the work
     * budget ran out, the same plan on one thread and two; enough prove the brute force's optimum.
     */
    @Test
    void aNodeCountBoundsTheSearchReproducibly() {
        SplittableRandom rnd = new SplittableRandom(12);
        int opened = 0;
        for (int k = 0; k < 400 && opened < 5; k++) {
            Target t = Targets.two(WIDE, 1, NARROW, 1, 255, Optional.empty());
            Workload w = small(rnd, t);
            Planner.Options few = new Planner.Options(SolverChoice.EXACT, 30).withSearchNodes(1);
            Plan one = Planner.plan(t, w, few.withThreads(1)).plan();
            Plan two = Planner.plan(t, w, few.withThreads(2)).plan();
            assertThat(two).isEqualTo(one);
            Plan enough = Planner.plan(t, w, new Planner.Options(SolverChoice.EXACT, 30).withSearchNodes(1_000_000)).plan();
            for (String space : List.of("global", "local")) {
                Optimality o = one.spaces().get(space).optimality().orElseThrow();
                Optimality e = enough.spaces().get(space).optimality().orElseThrow();
                long opt = optimum(t, w, space);
                assertThat(enough.spaces().get(space).highWater()).as("workload %d, %s", k, space).isEqualTo(opt);
                assertThat(e.optimal()).isTrue();
                if (!o.optimal()) {
                    opened++;
                    assertThat(o.open()).contains(Optimality.Open.WORK_BUDGET);
                    assertThat(o.timeLimited()).isFalse();
                    assertThat(o.lowerBound()).isLessThanOrEqualTo(opt);
                    assertThat(one.spaces().get(space).highWater()).isGreaterThanOrEqualTo(opt);
                }
            }
        }
        assertThat(opened).as("spaces one search node left open").isPositive();
    }
}
