package dev.berth.schedule;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The search against brute force over every topological order and every choice of declared pairs,
 * on small seeded random graphs; the live-byte rules are written out again here, from the Javadoc
 * of {@link Graph}, without the search's code.
 */
public class OrderSearchTest {

    /** A random graph: 2..7 operators, inputs, constants, outputs, kept chains, declared pairs. */
    public static Graph random(long seed) {
        return random(seed, false);
    }

    /**
     * With {@code extras}, also operators that read and write nothing (free) and operators that
     * read only a constant or nothing (sources); without, the graphs of {@link #random(long)}.
     */
    static Graph random(long seed, boolean extras) {
        Random r = new Random(seed);
        Random x = new Random(~seed);
        long alignment = new long[]{1, 4, 16}[r.nextInt(3)];
        List<Graph.Buffer> buffers = new ArrayList<>();
        List<String> avail = new ArrayList<>();
        Map<String, Role> roles = new HashMap<>();
        Map<String, Long> bytes = new HashMap<>();
        int inputs = 1 + r.nextInt(2);
        for (int i = 0; i < inputs; i++) {
            add(buffers, roles, bytes, "in" + i, r.nextInt(65), Role.INPUT);
            avail.add("in" + i);
        }
        if (r.nextInt(3) == 0 || (extras && x.nextBoolean())) {
            add(buffers, roles, bytes, "w", r.nextInt(20), Role.CONSTANT);
            avail.add("w");
        }
        int n = 2 + r.nextInt(6);
        List<Graph.Operator> ops = new ArrayList<>();
        for (int o = 0; o < n; o++) {
            if (extras && x.nextInt(4) == 0 && ops.size() == o) {
                ops.add(new Graph.Operator("free" + o, List.of(), List.of())); // at most one free operator
            }
            Set<String> reads = new LinkedHashSet<>();
            int k = 1 + r.nextInt(Math.min(3, avail.size()));
            for (int j = 0; j < k; j++) {
                reads.add(avail.get(r.nextInt(avail.size())));
            }
            if (extras && x.nextInt(3) == 0) {
                reads.clear(); // a source: it reads the constant, or nothing
                if (avail.contains("w") && x.nextBoolean()) {
                    reads.add("w");
                }
            }
            List<String> writes = new ArrayList<>();
            int outs = r.nextInt(5) == 0 ? 2 : 1;
            for (int j = 0; j < outs; j++) {
                String b = "t" + o + "_" + j;
                Role role = o == n - 1 || r.nextInt(6) == 0 ? Role.OUTPUT : Role.INTERMEDIATE;
                add(buffers, roles, bytes, b, r.nextInt(65), role);
                writes.add(b);
                avail.add(b);
            }
            List<Graph.Overwrite> pairs = new ArrayList<>();
            for (String w : writes) {
                for (String in : reads) {
                    if ((roles.get(in) == Role.INPUT || roles.get(in) == Role.INTERMEDIATE)
                            && up(bytes.get(w), alignment) <= up(bytes.get(in), alignment) && r.nextInt(3) > 0) {
                        pairs.add(new Graph.Overwrite(w, in, r.nextBoolean() ? Reuse.VIEW : Reuse.ELEMENTWISE));
                    }
                }
            }
            ops.add(new Graph.Operator("op" + o, List.copyOf(reads), writes, pairs));
        }
        List<List<String>> keep = new ArrayList<>();
        if (n >= 3 && r.nextInt(3) == 0) {
            int a = r.nextInt(n - 1);
            int b = a + 1 + r.nextInt(n - 1 - a);
            keep.add(List.of("op" + a, "op" + b));
        }
        return new Graph("g" + seed, alignment, buffers, ops, keep);
    }

    private static void add(List<Graph.Buffer> buffers, Map<String, Role> roles, Map<String, Long> bytes, String name,
                            long size, Role role) {
        buffers.add(new Graph.Buffer(name, size, role));
        roles.put(name, role);
        bytes.put(name, size);
    }

    static long up(long v, long a) {
        return ScheduleRules.up(v, a);
    }

    /** Every topological order of g (data dependences and kept chains), by operator name. */
    public static List<List<String>> orders(Graph g) {
        Map<String, Set<String>> before = new HashMap<>();
        Map<String, String> writer = new HashMap<>();
        for (Graph.Operator op : g.operators()) {
            op.writes().forEach(w -> writer.put(w, op.name()));
        }
        for (Graph.Operator op : g.operators()) {
            Set<String> b = new HashSet<>();
            op.reads().stream().filter(writer::containsKey).forEach(x -> b.add(writer.get(x)));
            before.put(op.name(), b);
        }
        for (List<String> chain : g.keepOrder()) {
            for (int i = 1; i < chain.size(); i++) {
                before.get(chain.get(i)).add(chain.get(i - 1));
            }
        }
        List<List<String>> out = new ArrayList<>();
        extend(g, before, new ArrayList<>(), out);
        return out;
    }

    private static void extend(Graph g, Map<String, Set<String>> before, List<String> prefix, List<List<String>> out) {
        if (prefix.size() == g.operators().size()) {
            out.add(List.copyOf(prefix));
            return;
        }
        for (Graph.Operator op : g.operators()) {
            if (!prefix.contains(op.name()) && prefix.containsAll(before.get(op.name()))) {
                prefix.add(op.name());
                extend(g, before, prefix, out);
                prefix.remove(prefix.size() - 1);
            }
        }
    }

    /** The pairs of {@code chosen} obey the rules in {@code order}: or null if they break one. Else the peak. */
    static Long peak(Graph g, List<String> order, List<Graph.Overwrite> chosen, Map<Graph.Overwrite, String> opOf) {
        return ScheduleRules.peak(g, order, chosen, opOf);
    }

    /** The least peak over every subset of the level's declared pairs that obeys the rules in {@code order}. */
    public static long bestPairs(Graph g, List<String> order, InPlace level) {
        List<Graph.Overwrite> declared = new ArrayList<>();
        Map<Graph.Overwrite, String> opOf = new HashMap<>();
        for (Graph.Operator op : g.operators()) {
            for (Graph.Overwrite w : op.overwrites()) {
                if (level.allows(w.reason()) && peak(g, order, List.of(w), Map.of(w, op.name())) != null) {
                    declared.add(w);
                    opOf.put(w, op.name());
                }
            }
        }
        long best = Long.MAX_VALUE;
        for (int mask = 0; mask < (1 << declared.size()); mask++) {
            List<Graph.Overwrite> pick = new ArrayList<>();
            for (int i = 0; i < declared.size(); i++) {
                if ((mask & (1 << i)) != 0) {
                    pick.add(declared.get(i));
                }
            }
            Long p = peak(g, order, pick, opOf);
            if (p != null) {
                best = Math.min(best, p);
            }
        }
        return best;
    }

    @TestFactory
    Stream<DynamicTest> optimumEqualsBruteForce() {
        return IntStream.range(0, 300).boxed().flatMap(seed -> Stream.of(InPlace.values()).map(level ->
                DynamicTest.dynamicTest("seed " + seed + " " + level.id(), () -> check(random(seed), level))));
    }

    @TestFactory
    Stream<DynamicTest> optimumEqualsBruteForceWithSourcesAndFreeOperators() {
        return IntStream.range(0, 120).boxed().flatMap(seed -> Stream.of(InPlace.values()).map(level ->
                DynamicTest.dynamicTest("seed " + seed + " " + level.id(), () -> check(random(seed, true), level))));
    }

    private static void check(Graph g, InPlace level) {
        List<String> listed = g.operators().stream().map(Graph.Operator::name).toList();
        List<List<String>> all = orders(g);
        long brute = all.stream().mapToLong(o -> bestPairs(g, o, level)).min().orElseThrow();
        Schedule best = OrderSearch.search(g, Order.BEST, level);
        assertThat(best.peak()).as("optimum").isEqualTo(brute);
        assertThat(best.proved()).isTrue();
        assertThat(best.bound()).isEqualTo(brute);
        assertThat(best.filePeak()).isEqualTo(bestPairs(g, listed, InPlace.NONE));
        assertThat(best.fileLevelPeak()).isEqualTo(bestPairs(g, listed, level));
        assertThat(best.peak()).isLessThanOrEqualTo(best.fileLevelPeak()).isLessThanOrEqualTo(best.filePeak());
        assertThat(all).contains(best.order());
        assertChosenPairs(g, best, level);

        Schedule file = OrderSearch.search(g, Order.FILE, level);
        assertThat(file.order()).isEqualTo(listed);
        assertThat(file.peak()).isEqualTo(bestPairs(g, listed, level));
        assertThat(file.bound()).isLessThanOrEqualTo(brute);
        assertThat(file.proved()).isEqualTo(file.peak() == brute && file.bound() == brute);
        assertChosenPairs(g, file, level);

        // one node per segment: the incumbent stays, the bracket holds the optimum
        Schedule starved = OrderSearch.search(g, Order.BEST, level, 1);
        assertThat(starved.bound()).isLessThanOrEqualTo(brute);
        assertThat(starved.peak()).isGreaterThanOrEqualTo(brute).isLessThanOrEqualTo(starved.fileLevelPeak());
        assertThat(all).contains(starved.order());
        assertChosenPairs(g, starved, level);
    }

    /** The reported pairs are declared, allowed by the level, obey the rules, and give the reported peak. */
    private static void assertChosenPairs(Graph g, Schedule s, InPlace level) {
        assertThat(ScheduleRules.peakOf(g, s, level)).as("the pairs obey the rules and give the peak").isEqualTo(s.peak());
    }

    @Test
    void reorderingFindsTheShortcutFirst() {
        // silero's shape: the shortcut's input is kept live across a long main branch unless the shortcut runs first
        Graph g = new Graph("shortcut", 1, List.of(
                new Graph.Buffer("x", 100, Role.INPUT), new Graph.Buffer("a", 100, Role.INTERMEDIATE),
                new Graph.Buffer("b", 100, Role.INTERMEDIATE), new Graph.Buffer("s", 10, Role.INTERMEDIATE),
                new Graph.Buffer("y", 10, Role.OUTPUT)), List.of(
                new Graph.Operator("main1", List.of("x"), List.of("a")),
                new Graph.Operator("main2", List.of("a"), List.of("b")),
                new Graph.Operator("short", List.of("x"), List.of("s")),
                new Graph.Operator("add", List.of("b", "s"), List.of("y"))), List.of());
        Schedule s = OrderSearch.search(g, Order.BEST, InPlace.NONE);
        assertThat(s.filePeak()).isEqualTo(300); // main2: x, a, b live together (x waits for the shortcut)
        assertThat(s.order()).containsExactly("short", "main1", "main2", "add");
        assertThat(s.peak()).isEqualTo(210); // main1 and main2 hold two 100-byte tensors and s
        assertThat(s.proved()).isTrue();
    }

    private static void invalid(Runnable build, String path, String... words) {
        assertThatThrownBy(build::run).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(((Failure.InvalidInput) e.failure()).path()).contains(path);
            assertThat(e.getMessage()).contains(words);
        });
    }

    private static Graph.Buffer buf(String name, Role role) {
        return new Graph.Buffer(name, 8, role);
    }

    private static Graph.Operator op(String name, List<String> reads, List<String> writes, Graph.Overwrite... pairs) {
        return new Graph.Operator(name, reads, writes, List.of(pairs));
    }

    @Test
    void badGraphsAreInvalidInputNamingThePath() {
        List<Graph.Buffer> xab = List.of(buf("x", Role.INPUT), buf("a", Role.INTERMEDIATE), buf("b", Role.OUTPUT));
        invalid(() -> new Graph("g", 1, xab, List.of(op("p", List.of("x", "b"), List.of("a")), op("q", List.of("a"), List.of("b"))),
                List.of()), "operators[1]", "cycle", "'q' -> 'p' -> 'q'");
        invalid(() -> new Graph("g", 1, xab, List.of(op("p", List.of("zz"), List.of("a")), op("q", List.of("a"), List.of("b"))),
                List.of()), "operators[0].reads[0]", "no buffer is named 'zz'");
        invalid(() -> new Graph("g", 1, xab, List.of(op("p", List.of("x"), List.of("a")), op("q", List.of("x"), List.of("a", "b"))),
                List.of()), "operators[1].writes[0]", "written by operators[0] 'p' already");
        invalid(() -> new Graph("g", 1, xab, List.of(op("p", List.of("a"), List.of("x", "b")), op("q", List.of("x"), List.of("a"))),
                List.of()), "operators[0].writes[0]", "graph input");
        invalid(() -> new Graph("g", 1, xab, List.of(op("p", List.of("x"), List.of("a"))), List.of()),
                "buffers[2]", "graph output 'b' is written by no operator");
        invalid(() -> new Graph("g", 1, xab, List.of(op("p", List.of("x", "a"), List.of("a")), op("q", List.of("a"), List.of("b"))),
                List.of()), "operators[0].reads[1]", "which it writes itself");
        invalid(() -> new Graph("g", 1, xab, List.of(op("q", List.of("a"), List.of("b")), op("p", List.of("x"), List.of("a"))),
                List.of()), "operators[0].reads[0]", "listed later");
        List<Graph.Operator> chain = List.of(op("p", List.of("x"), List.of("a")), op("q", List.of("a"), List.of("b")));
        invalid(() -> new Graph("g", 1, xab, chain, List.of(List.of("q", "p"))), "keepOrder[0][1]", "kept chain keeps the listed order");
        invalid(() -> new Graph("g", 1, xab, chain, List.of(List.of("p", "nope"))), "keepOrder[0][1]", "no operator is named 'nope'");
        invalid(() -> new Graph("g", 1, xab, chain, List.of(List.of("p"), List.of("p"))), "keepOrder[1][0]", "in a kept chain already");
        invalid(() -> new Graph("g", 1, xab, List.of(op("p", List.of("x"), List.of("a"), new Graph.Overwrite("b", "x", Reuse.VIEW)),
                op("q", List.of("a"), List.of("b"))), List.of()), "operators[0].overwrites[0].output", "does not write 'b'");
        invalid(() -> new Graph("g", 1, xab, List.of(op("p", List.of("x"), List.of("a"), new Graph.Overwrite("a", "b", Reuse.VIEW)),
                op("q", List.of("a"), List.of("b"))), List.of()), "operators[0].overwrites[0].input", "does not read 'b'");
        List<Graph.Buffer> withConst = List.of(buf("x", Role.INPUT), buf("w", Role.CONSTANT), buf("b", Role.OUTPUT));
        invalid(() -> new Graph("g", 1, withConst, List.of(op("p", List.of("x", "w"), List.of("b"),
                new Graph.Overwrite("b", "w", Reuse.ELEMENTWISE))), List.of()), "operators[0].overwrites[0].input", "never written over");
        List<Graph.Buffer> bigOut = List.of(new Graph.Buffer("x", 4, Role.INPUT), new Graph.Buffer("b", 6, Role.OUTPUT));
        invalid(() -> new Graph("g", 4, bigOut, List.of(op("p", List.of("x"), List.of("b"),
                new Graph.Overwrite("b", "x", Reuse.ELEMENTWISE))), List.of()), "operators[0].overwrites[0].output", "reserves 8 bytes");
        invalid(() -> new Graph("g", 1, List.of(new Graph.Buffer("x", -1, Role.INPUT)), List.of(), List.of()), "buffers[0].bytes", "-1");
        invalid(() -> new Graph("g", 1, List.of(buf("x", Role.INPUT), buf("x", Role.INPUT)), List.of(), List.of()),
                "buffers[1].name", "buffers[0] already");
        invalid(() -> new Graph("g", 1, xab, List.of(op("p", List.of("x"), List.of("a")), op("p", List.of("a"), List.of("b"))),
                List.of()), "operators[1].name", "operators[0] already");
        invalid(() -> new Graph("g", 0, xab, chain, List.of()), "alignment", "at least 1");
        invalid(() -> OrderSearch.search(new Graph("g", 1, xab, chain, List.of()), Order.BEST, InPlace.NONE, 0), "nodes", "at least 1");
    }
}
