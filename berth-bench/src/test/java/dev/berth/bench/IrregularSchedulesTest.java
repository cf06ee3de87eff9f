package dev.berth.bench;

import dev.berth.schedule.Graph;
import dev.berth.schedule.InPlace;
import dev.berth.schedule.Order;
import dev.berth.schedule.OrderSearch;
import dev.berth.schedule.OrderSearchTest;
import dev.berth.schedule.Schedule;
import dev.berth.schedule.ScheduleRules;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Berth's order search on the generated irregular graphs against XLA's three schedulers and the
 * file order (issue 28's second measured goal, on few seeds so that it runs fast): never above any
 * of them, the optimum proved within {@link #NODES} nodes per segment on every graph (all of them
 * have at most 64 operators), every order a topological order of the graph (checked here, from the
 * operators' reads and writes) and every peak measured again by {@link ScheduleRules}, which shares
 * no code with the search.
 */
class IrregularSchedulesTest {
    /** The node budget per segment within which every graph here is proved. */
    static final long NODES = 200_000;

    /** Three seeds of each family of at most 64 operators. */
    static List<IrregularGraphs.Generated> graphs() {
        List<IrregularGraphs.Generated> out = new ArrayList<>();
        for (long seed = 1; seed <= 3; seed++) {
            out.add(new IrregularGraphs.Generated("randwire", seed, IrregularGraphs.randWire(seed, (int) seed, false)));
            out.add(new IrregularGraphs.Generated("nasnet-normal", seed, IrregularGraphs.nasnet(seed, false)));
            out.add(new IrregularGraphs.Generated("nasnet-reduction", seed, IrregularGraphs.nasnet(seed, true)));
            out.add(new IrregularGraphs.Generated("unet", seed, IrregularGraphs.unet(seed, false)));
            out.add(new IrregularGraphs.Generated("unet-decoder", seed, IrregularGraphs.unet(seed, true)));
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> berthIsProvedAndNeverAboveXlaOrTheFileOrder() {
        return graphs().stream().flatMap(gen -> Stream.of(InPlace.NONE, InPlace.ELEMENTWISE).map(level ->
                DynamicTest.dynamicTest(gen.graph().name() + " " + level.id(), () -> check(gen.graph(), level))));
    }

    private static void check(Graph g, InPlace level) {
        assertThat(g.operators()).hasSizeLessThanOrEqualTo(IrregularSchedules.PROVE_UP_TO);
        List<String> listed = g.operators().stream().map(Graph.Operator::name).toList();
        Schedule berth = OrderSearch.search(g, Order.BEST, level, NODES);
        assertTopological(g, berth.order());
        assertThat(ScheduleRules.peakOf(g, berth, level)).as("Berth's peak, measured again").isEqualTo(berth.peak());
        assertThat(berth.proved()).as("proved within %,d nodes per segment", NODES).isTrue();
        assertThat(berth.bound()).isEqualTo(berth.peak());
        long fileNone = ScheduleRules.peak(g, listed, List.of(), Map.of());
        assertThat(berth.filePeak()).isEqualTo(fileNone);
        assertThat(berth.peak()).isLessThanOrEqualTo(berth.fileLevelPeak()).isLessThanOrEqualTo(fileNone);
        for (XlaSchedulers.Kind kind : XlaSchedulers.Kind.values()) {
            List<String> order = XlaSchedulers.order(g, kind);
            assertTopological(g, order);
            Schedule xla = XlaSchedulers.run(g, order, level);
            assertThat(xla.order()).isEqualTo(order);
            assertThat(ScheduleRules.peakOf(g, xla, level)).as("%s's peak, measured again", kind.id()).isEqualTo(xla.peak());
            if (level == InPlace.NONE) {
                assertThat(xla.peak()).isEqualTo(ScheduleRules.peak(g, order, List.of(), Map.of()));
            }
            assertThat(berth.peak()).as("Berth against XLA's %s", kind.id()).isLessThanOrEqualTo(xla.peak());
        }
    }

    /**
     * {@code order} names every operator of {@code g} once, each after the writers of the buffers it
     * reads and in the order of every kept chain: written from the graph's operators alone.
     */
    static void assertTopological(Graph g, List<String> order) {
        assertThat(order).as("every operator once").hasSize(g.operators().size()).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(g.operators().stream().map(Graph.Operator::name).toList());
        Map<String, Integer> position = new HashMap<>();
        for (int i = 0; i < order.size(); i++) {
            position.put(order.get(i), i);
        }
        Map<String, String> writer = new HashMap<>();
        for (Graph.Operator op : g.operators()) {
            op.writes().forEach(w -> writer.put(w, op.name()));
        }
        for (Graph.Operator op : g.operators()) {
            for (String read : op.reads()) {
                if (writer.containsKey(read)) {
                    assertThat(position.get(writer.get(read))).as("%s runs after %s, which writes %s", op.name(), writer.get(read), read)
                            .isLessThan(position.get(op.name()));
                }
            }
        }
        for (List<String> chain : g.keepOrder()) {
            for (int i = 1; i < chain.size(); i++) {
                assertThat(position.get(chain.get(i - 1))).isLessThan(position.get(chain.get(i)));
            }
        }
    }

    /** Small RandWire cells, WS(6..8, 4, 0.75), one operator per node: the search's optimum equals brute force over every order. */
    @TestFactory
    Stream<DynamicTest> smallRandWireCellsMatchBruteForce() {
        return IntStream.rangeClosed(1, 12).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            Graph g = IrregularGraphs.randWire(seed, 6 + seed % 3, 1 + seed % 3, false);
            List<List<String>> all = OrderSearchTest.orders(g);
            for (InPlace level : List.of(InPlace.NONE, InPlace.ELEMENTWISE)) {
                long brute = all.stream().mapToLong(o -> OrderSearchTest.bestPairs(g, o, level)).min().orElseThrow();
                Schedule s = OrderSearch.search(g, Order.BEST, level);
                assertThat(s.peak()).as(level.id()).isEqualTo(brute);
                assertThat(s.proved()).isTrue();
            }
        }));
    }

    @Test
    void wattsStrogatzKeepsItsEdgesAndPointsFromLowToHigh() {
        for (long seed = 1; seed <= 50; seed++) {
            int[][] preds = IrregularGraphs.wattsStrogatz(32, 4, 0.75, new SplittableRandom(seed));
            int edges = 0;
            for (int v = 0; v < preds.length; v++) {
                Set<Integer> distinct = new HashSet<>();
                for (int u : preds[v]) {
                    assertThat(u).isLessThan(v);
                    assertThat(distinct.add(u)).isTrue();
                }
                edges += preds[v].length;
            }
            // each rewiring moves one edge of the ring lattice (32 nodes, 2 each side: 64 edges)
            assertThat(edges).isEqualTo(64);
        }
        // p = 0 leaves the lattice: node v's predecessors are v-2 and v-1 (and the ring's wrap-around for 30, 31)
        int[][] lattice = IrregularGraphs.wattsStrogatz(32, 4, 0, new SplittableRandom(1));
        assertThat(lattice[5]).containsExactly(3, 4);
        assertThat(lattice[31]).containsExactly(0, 1, 29, 30);
    }

    @Test
    void generatorsAreSeededAndSizedFromTheStructure() {
        Graph a = IrregularGraphs.randWire(3, 1, false);
        Graph b = IrregularGraphs.randWire(3, 1, false);
        assertThat(a.buffers()).isEqualTo(b.buffers());
        assertThat(a.operators()).isEqualTo(b.operators());
        assertThat(IrregularGraphs.randWire(4, 1, false).operators()).isNotEqualTo(a.operators());
        assertThat(a.operators()).hasSize(33); // 32 nodes and the mean
        Map<String, Long> bytes = new HashMap<>();
        a.buffers().forEach(x -> bytes.put(x.name(), x.bytes()));
        assertThat(bytes.get("x")).isEqualTo(78L * 56 * 56 * 4);
        assertThat(bytes.get("n0")).isEqualTo(78L * 28 * 28 * 4);
        assertThat(bytes.get("mean")).isEqualTo(78L * 28 * 28 * 4);
        Map<String, Long> cell3 = new HashMap<>();
        IrregularGraphs.randWire(3, 3, false).buffers().forEach(x -> cell3.put(x.name(), x.bytes()));
        assertThat(cell3.get("x")).isEqualTo(156L * 14 * 14 * 4);
        assertThat(cell3.get("n0")).isEqualTo(312L * 7 * 7 * 4);
        for (IrregularGraphs.Generated gen : IrregularGraphs.all(2)) {
            Graph again = switch (gen.family()) {
                case "randwire" -> IrregularGraphs.randWire(gen.seed(), (int) ((gen.seed() - 1) % 3) + 1, false);
                case "randwire-fine" -> IrregularGraphs.randWire(gen.seed(), (int) ((gen.seed() - 1) % 3) + 1, true);
                case "nasnet-normal" -> IrregularGraphs.nasnet(gen.seed(), false);
                case "nasnet-reduction" -> IrregularGraphs.nasnet(gen.seed(), true);
                case "unet" -> IrregularGraphs.unet(gen.seed(), false);
                case "unet-decoder" -> IrregularGraphs.unet(gen.seed(), true);
                case "nasnet-stack" -> IrregularGraphs.nasnetStack(gen.seed());
                default -> throw new AssertionError(gen.family());
            };
            assertThat(again.operators()).as(gen.graph().name()).isEqualTo(gen.graph().operators());
            assertThat(again.buffers()).isEqualTo(gen.graph().buffers());
        }
    }
}
