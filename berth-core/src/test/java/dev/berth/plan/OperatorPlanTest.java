package dev.berth.plan;

import dev.berth.artifact.Optimality;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.failure.BerthException;
import dev.berth.schedule.Graph;
import dev.berth.schedule.InPlace;
import dev.berth.schedule.Order;
import dev.berth.schedule.OrderSearch;
import dev.berth.schedule.OrderSearchTest;
import dev.berth.schedule.Reuse;
import dev.berth.schedule.Role;
import dev.berth.schedule.Schedule;
import dev.berth.target.AddressFormat;
import dev.berth.target.EndConvention;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.verify.PlanValidator;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.BufferUse;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Operator;
import dev.berth.workload.Operators;
import dev.berth.workload.Overwrite;
import dev.berth.workload.Shared;
import dev.berth.workload.Workload;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Workloads with operators, end to end: a seeded random operator graph as a workload (contract
 * §5.3), its graph, the search, the lowering and the plan. The peak is checked against brute force
 * over every order and every choice of declared pairs ({@link OrderSearchTest#bestPairs}, which
 * knows nothing of workloads), and the lowered steps against the contract's rule written out here.
 */
class OperatorPlanTest {
    static final AddressFormat WIDE = new AddressFormat("wide", (1L << 40) - 1, EndConvention.EXCLUSIVE);

    /** One logical space {@code global} aligned as the graph, nothing generated. */
    static Target target(long alignment) {
        return new Target("t", Map.of("wide", WIDE), Map.of("global", new Space.Logical("global", WIDE, alignment, 0)),
                Optional.empty());
    }

    /** The graph {@code g} as a workload with operators in space {@code global} of {@code t}. */
    static Workload workloadOf(Graph g, Target t) {
        Space global = t.spaces().get("global");
        Map<String, List<Overwrite>> overwrites = new HashMap<>();
        List<Operator> ops = new ArrayList<>();
        for (Graph.Operator op : g.operators()) {
            ops.add(new Operator(op.name(), op.reads(), op.writes()));
            for (Graph.Overwrite w : op.overwrites()) {
                overwrites.computeIfAbsent(w.output(), k -> new ArrayList<>()).add(new Overwrite(w.input(), w.reason()));
            }
        }
        List<BufferUse> uses = new ArrayList<>();
        for (Graph.Buffer b : g.buffers()) {
            uses.add(new BufferUse(b.name(), b.role(), overwrites.getOrDefault(b.name(), List.of())));
        }
        Operators.Listed listed = new Operators.Listed(ops, g.keepOrder(), uses);
        Map<String, Lifetime> steps = listed.lifetimes();
        List<BufferSpec> buffers = new ArrayList<>();
        for (Graph.Buffer b : g.buffers()) {
            buffers.add(BufferSpec.named(b.name()).size(b.bytes()).in(global).live(steps.get(b.name())).build());
        }
        return new Workload(g.name(), buffers, List.of(), listed);
    }

    @TestFactory
    Stream<DynamicTest> loweredStepsFollowTheChosenOrderAndGiveTheSearchsPeak() {
        return IntStream.range(0, 200).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            Graph ref = OrderSearchTest.random(seed);
            Target t = target(ref.alignment());
            Workload w = workloadOf(ref, t);
            Graph g = Lowering.graph(w);
            assertThat(g.buffers()).hasSameSizeAs(ref.buffers());
            for (InPlace level : InPlace.values()) {
                Schedule s = OrderSearch.search(g, Order.BEST, level);
                long brute = OrderSearchTest.orders(ref).stream().mapToLong(o -> OrderSearchTest.bestPairs(ref, o, level))
                        .min().orElseThrow();
                assertThat(s.peak()).as("search against brute force").isEqualTo(brute);
                Workload low = Lowering.lower(w, g, s);
                Operators.Ordered ordered = (Operators.Ordered) low.operators();
                assertThat(ordered.order()).extracting(Operator::name).isEqualTo(s.order());
                assertThat(ordered.shared()).hasSameSizeAs(s.pairs());
                assertSteps(ref, s.order(), low);
                assertThat(pairedPeak(low)).as("the lowered workload's live bytes").isEqualTo(brute);
                assertPlan(t, low, s, brute);
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> theListedOrderWithoutPairsKeepsTheListedSteps() {
        return IntStream.range(0, 50).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            Graph ref = OrderSearchTest.random(seed);
            Workload w = workloadOf(ref, target(ref.alignment()));
            Graph g = Lowering.graph(w);
            Workload low = Lowering.lower(w, g, OrderSearch.search(g, Order.FILE, InPlace.NONE));
            assertThat(low.buffers()).isEqualTo(w.buffers());
            assertThat(((Operators.Ordered) low.operators()).order())
                    .isEqualTo(((Operators.Listed) w.operators()).operators());
            assertThat(((Operators.Ordered) low.operators()).shared()).isEmpty();
            // planned as it is, a listed workload's plan carries the listed order, as the lowered one's does
            assertThat(Planner.plan(target(ref.alignment()), w, Planner.Options.defaults()).plan())
                    .isEqualTo(Planner.plan(target(ref.alignment()), low, Planner.Options.defaults()).plan());
        }));
    }

    @org.junit.jupiter.api.Test
    void aScheduleOfAnotherGraphOrAWorkloadWithoutOperatorsIsInvalidInput() {
        Graph ref = OrderSearchTest.random(7);
        Workload w = workloadOf(ref, target(ref.alignment()));
        Graph g = Lowering.graph(w);
        Schedule s = OrderSearch.search(g, Order.FILE, InPlace.NONE);
        List<String> renamed = new ArrayList<>(s.order());
        renamed.set(0, "nobody");
        Schedule other = new Schedule(renamed, List.of(), s.filePeak(), s.fileLevelPeak(), s.peak(), s.bound(), false, 0, 1, 0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Lowering.lower(w, g, other))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.failure().message())
                        .isEqualTo("schedule.order[0]: 'nobody' is no operator of graph '" + g.name() + "'"));
        Workload stepped = new Workload("s", w.buffers(), List.of());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Lowering.graph(stepped))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.failure().message())
                        .startsWith("workload 's' lists no operators"));
        Workload few = new Workload("few", w.buffers().subList(1, w.buffers().size()), List.of());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Lowering.lower(few, g, s))
                .isInstanceOfSatisfying(BerthException.class, e -> assertThat(e.failure().message())
                        .isEqualTo("graph '" + g.name() + "': buffer '" + ref.buffers().get(0).name()
                                + "' is no buffer of workload 'few'"));
    }

    @org.junit.jupiter.api.Test
    void aChainIsPlacedAtOneOffsetAndAChainOfUnequalSizesClaimsNoMoreThanThePeak() {
        for (long tail : new long[]{64, 16}) {
            Graph ref = new Graph("chain", 16, List.of(new Graph.Buffer("x", 64, Role.INPUT),
                    new Graph.Buffer("a", 64, Role.INTERMEDIATE),
                    new Graph.Buffer("b", 64, Role.INTERMEDIATE),
                    new Graph.Buffer("c", 48, Role.INTERMEDIATE),
                    new Graph.Buffer("y", tail, Role.OUTPUT)), List.of(
                    new Graph.Operator("p", List.of("x"), List.of("a")),
                    new Graph.Operator("q", List.of("a"), List.of("b"),
                            List.of(new Graph.Overwrite("b", "a", Reuse.ELEMENTWISE))),
                    new Graph.Operator("r", List.of("a", "b"), List.of("c")),
                    new Graph.Operator("s", List.of("b", "c"), List.of("y"),
                            List.of(new Graph.Overwrite("y", "b", Reuse.VIEW)))), List.of());
            // a is read by r after q: b cannot be written over a; y over b at s
            Target t = target(16);
            Workload w = workloadOf(ref, t);
            Graph g = Lowering.graph(w);
            Schedule s = OrderSearch.search(g, Order.FILE, InPlace.ELEMENTWISE);
            assertThat(s.pairs()).extracting(Schedule.Pair::output).containsExactly("y");
            PlanResult r = Planner.plan(t, Lowering.lower(w, g, s), Planner.Options.defaults());
            SpaceMetrics m = r.plan().spaces().get("global");
            assertThat(r.plan().buffer("y").orElseThrow().offset()).isEqualTo(r.plan().buffer("b").orElseThrow().offset());
            // steps: x 0, a 0..2, b 1..3, c 2..3, y 3: peak at step 2 (a, b, c) = 176; at 3 b and c only (y shares b's bytes)
            assertThat(m.peakLive()).isEqualTo(176);
            Optimality o = m.optimality().orElseThrow();
            if (tail == 64) {
                assertThat(o.optimal()).as(o.toString()).isTrue();
            } else {
                assertThat(o.lowerBound()).isEqualTo(m.peakLive());
                assertThat(o.optimal() ? o.proof() : o.open().orElseThrow())
                        .isIn(Optimality.Proof.LOWER_BOUND, Optimality.Open.SHARED);
            }
        }
    }

    @org.junit.jupiter.api.Test
    void aPairOfDifferentAlignmentsSitsAtAMultipleOfTheirLcm() {
        Target t = target(2);
        Space g = t.spaces().get("global");
        Operators.Listed listed = new Operators.Listed(List.of(
                new Operator("w0", List.of(), List.of("pad")),
                new Operator("relu", List.of("x"), List.of("a")),
                new Operator("fc", List.of("a", "pad"), List.of("y"))), List.of(), List.of(
                new BufferUse("x", Role.INPUT),
                new BufferUse("pad", Role.INTERMEDIATE),
                new BufferUse("a", Role.INTERMEDIATE,
                        List.of(new Overwrite("x", Reuse.ELEMENTWISE))),
                new BufferUse("y", Role.OUTPUT)));
        Map<String, Lifetime> steps = listed.lifetimes();
        // x reserves 30 (alignment lcm(2, 3) = 6), a 28 (lcm(2, 4) = 4): together at a multiple of 12
        Workload w = new Workload("align", List.of(
                BufferSpec.named("x").size(30).alignment(3).in(g).live(steps.get("x")).build(),
                BufferSpec.named("pad").size(10).in(g).live(steps.get("pad")).build(),
                BufferSpec.named("a").size(28).alignment(4).in(g).live(steps.get("a")).build(),
                BufferSpec.named("y").size(8).in(g).live(steps.get("y")).build()), List.of(), listed);
        Graph graph = Lowering.graph(w);
        Schedule s = OrderSearch.search(graph, Order.FILE, InPlace.ELEMENTWISE);
        assertThat(s.pairs()).extracting(Schedule.Pair::output).containsExactly("a");
        PlanResult r = Planner.plan(t, Lowering.lower(w, graph, s), Planner.Options.defaults());
        assertThat(PlanValidator.validate(r.plan()).valid()).isTrue();
        long at = r.plan().buffer("x").orElseThrow().offset();
        assertThat(r.plan().buffer("a").orElseThrow().offset()).isEqualTo(at);
        assertThat(at % 12).isZero();
        // the merged item reserves 36 (30 rounded up to 12): more than x, so no bound above the peak is claimed
        Optimality o = r.plan().spaces().get("global").optimality().orElseThrow();
        assertThat(o.lowerBound()).isEqualTo(r.plan().spaces().get("global").peakLive());
        assertThat(o.optimal() ? o.proof() : o.open().orElseThrow())
                .isIn(Optimality.Proof.LOWER_BOUND, Optimality.Open.SHARED);
    }

    /** The planned workload: valid, its peak the optimum, each pair at one offset, the order carried. */
    private static void assertPlan(Target t, Workload low, Schedule s, long brute) {
        PlanResult r = Planner.plan(t, low, Planner.Options.defaults());
        assertThat(PlanValidator.validate(r.plan()).valid()).isTrue();
        SpaceMetrics m = r.plan().spaces().get("global");
        assertThat(m.peakLive()).as("plan's peak live against brute force").isEqualTo(brute);
        assertThat(m.highWater()).isGreaterThanOrEqualTo(m.peakLive());
        assertThat(m.optimality().orElseThrow().lowerBound()).isBetween(m.peakLive(), m.highWater());
        assertThat(r.plan().order().orElseThrow()).extracting(Operator::name).isEqualTo(s.order());
        assertThat(r.plan().version()).isEqualTo(4);
        for (Schedule.Pair p : s.pairs()) {
            PlannedBuffer out = r.plan().buffer(p.output()).orElseThrow();
            assertThat(out.sharesWith()).contains(p.input());
            assertThat(out.offset()).isEqualTo(r.plan().buffer(p.input()).orElseThrow().offset());
        }
        assertThat(r.plan().buffers().stream().filter(b -> b.sharesWith().isPresent()).count())
                .isEqualTo(s.pairs().size());
    }

    /** Each buffer's steps in {@code order}, by the contract's rule (§5.3). */
    private static void assertSteps(Graph g, List<String> order, Workload low) {
        int n = order.size();
        for (Graph.Buffer b : g.buffers()) {
            int made = -1;
            int last = -1;
            for (Graph.Operator op : g.operators()) {
                int at = order.indexOf(op.name());
                if (op.writes().contains(b.name())) {
                    made = at;
                }
                if (op.reads().contains(b.name())) {
                    last = Math.max(last, at);
                }
            }
            Lifetime want = switch (b.role()) {
                case INPUT -> new Lifetime(0, Math.max(0, last));
                case INTERMEDIATE -> new Lifetime(made, Math.max(made, last));
                case OUTPUT -> new Lifetime(made, n - 1);
                case CONSTANT, VARIABLE -> new Lifetime(0, Math.max(0, n - 1));
            };
            BufferSpec got = low.buffers().stream().filter(x -> x.name().equals(b.name())).findFirst().orElseThrow();
            assertThat(got.live()).as(b.name()).isEqualTo(want);
        }
    }

    /** The most reserved bytes live at one step, a shared output counting from the step after its writer's. */
    static long pairedPeak(Workload low) {
        Map<String, Boolean> shares = new HashMap<>();
        for (Shared p : ((Operators.Ordered) low.operators()).shared()) {
            shares.put(p.output(), true);
        }
        long peak = 0;
        for (int step = 0; step < low.steps(); step++) {
            long live = 0;
            for (BufferSpec b : low.buffers()) {
                int first = b.live().first() + (shares.containsKey(b.name()) ? 1 : 0);
                if (first <= step && step <= b.live().last()) {
                    live += Planner.reservedSize(b.space(), b.name(), b.size(), b.alignment());
                }
            }
            peak = Math.max(peak, live);
        }
        return peak;
    }
}
