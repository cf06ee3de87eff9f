package dev.berth.bench;

import dev.berth.schedule.Graph;
import dev.berth.schedule.InPlace;
import dev.berth.schedule.Role;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** XLA's three schedulers on small graphs whose orders follow from the rules in {@link XlaSchedulers}' Javadoc. */
class XlaSchedulersTest {

    private static Graph.Buffer buf(String name, long bytes, Role role) {
        return new Graph.Buffer(name, bytes, role);
    }

    private static Graph.Operator op(String name, List<String> reads, String write) {
        return new Graph.Operator(name, reads, List.of(write));
    }

    /**
     * The counterexample in the comment of XLA's ListScheduler: A feeds B, D and E (1 byte each way),
     * B's output is 2 bytes, F's too. The scheduler defers B, whose output is larger than what it
     * frees, and runs A, then D and E (E first: equal priorities, E entered the ready list last), F,
     * B, C, G.
     */
    @Test
    void listSchedulerDefersWhatDefinesMoreThanItFrees() {
        Graph g = new Graph("xla-comment", 1, List.of(buf("p", 1, Role.INPUT), buf("a", 1, Role.INTERMEDIATE),
                buf("b", 2, Role.INTERMEDIATE), buf("c", 1, Role.INTERMEDIATE), buf("d", 1, Role.INTERMEDIATE),
                buf("e", 1, Role.INTERMEDIATE), buf("f", 2, Role.INTERMEDIATE), buf("g", 1, Role.OUTPUT)), List.of(
                op("A", List.of("p"), "a"), op("B", List.of("a"), "b"), op("C", List.of("b"), "c"),
                op("D", List.of("a"), "d"), op("E", List.of("a"), "e"), op("F", List.of("d", "e"), "f"),
                op("G", List.of("c", "f"), "g")), List.of());
        assertThat(XlaSchedulers.order(g, XlaSchedulers.Kind.LIST)).containsExactly("A", "E", "D", "F", "B", "C", "G");
        // post order from the root G: its operands C then F, each operand's own first
        assertThat(XlaSchedulers.order(g, XlaSchedulers.Kind.POST_ORDER)).containsExactly("A", "B", "C", "D", "E", "F", "G");
    }

    /**
     * a's output has two readers, b and c; the root f reads e, b and c. DFS visits b and c first
     * (one extra user each, through a; by name between them), post order visits f's operands as
     * listed, and the list scheduler takes a (two users) before d, then what frees as much as it
     * defines.
     */
    @Test
    void theThreeOrders() {
        List<Graph.Buffer> buffers = List.of(buf("x", 10, Role.INPUT), buf("y", 10, Role.INPUT), buf("ta", 10, Role.INTERMEDIATE),
                buf("tb", 10, Role.INTERMEDIATE), buf("tc", 10, Role.INTERMEDIATE), buf("td", 10, Role.INTERMEDIATE),
                buf("te", 10, Role.INTERMEDIATE), buf("tf", 10, Role.OUTPUT));
        List<Graph.Operator> ops = List.of(op("a", List.of("x"), "ta"), op("b", List.of("ta"), "tb"), op("c", List.of("ta"), "tc"),
                op("d", List.of("y"), "td"), op("e", List.of("td"), "te"), op("f", List.of("te", "tb", "tc"), "tf"));
        Graph g = new Graph("three", 1, buffers, ops, List.of());
        assertThat(XlaSchedulers.order(g, XlaSchedulers.Kind.DFS)).containsExactly("a", "b", "c", "d", "e", "f");
        assertThat(XlaSchedulers.order(g, XlaSchedulers.Kind.POST_ORDER)).containsExactly("d", "e", "a", "b", "c", "f");
        // c before b: equal priorities, c entered last; then b frees ta
        assertThat(XlaSchedulers.order(g, XlaSchedulers.Kind.LIST)).containsExactly("a", "d", "e", "c", "b", "f");
        assertThat(XlaSchedulers.run(g, XlaSchedulers.order(g, XlaSchedulers.Kind.LIST), InPlace.NONE).peak())
                .isEqualTo(40); // b runs with ta, te, tc and tb live, f with te, tb, tc and tf

        // a kept chain b -> e is a control edge: every scheduler keeps it
        Graph kept = new Graph("kept", 1, buffers, ops, List.of(List.of("b", "e")));
        for (XlaSchedulers.Kind kind : XlaSchedulers.Kind.values()) {
            List<String> order = XlaSchedulers.order(kept, kind);
            IrregularSchedulesTest.assertTopological(kept, order);
            assertThat(order.indexOf("b")).as(kind.id()).isLessThan(order.indexOf("e"));
        }
    }

    /** An operator nobody reads (its output dead) is a root of its own, walked before the graph's root. */
    @Test
    void unusedOperatorsComeFirstInThePostOrders() {
        Graph g = new Graph("dead", 1, List.of(buf("x", 4, Role.INPUT), buf("t", 4, Role.INTERMEDIATE), buf("u", 4, Role.INTERMEDIATE),
                buf("y", 4, Role.OUTPUT)), List.of(op("p", List.of("x"), "t"), op("q", List.of("t"), "y"), op("dead", List.of("x"), "u")),
                List.of());
        assertThat(XlaSchedulers.order(g, XlaSchedulers.Kind.POST_ORDER)).containsExactly("dead", "p", "q");
        assertThat(XlaSchedulers.order(g, XlaSchedulers.Kind.DFS)).containsExactly("dead", "p", "q");
    }
}
