package dev.berth.io.onnx;

import dev.berth.schedule.Graph;
import dev.berth.schedule.InPlace;
import dev.berth.schedule.Order;
import dev.berth.schedule.OrderSearch;
import dev.berth.schedule.Reuse;
import dev.berth.schedule.Role;
import dev.berth.schedule.Schedule;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.berth.io.onnx.ElementType.FLOAT;
import static dev.berth.io.onnx.ElementType.INT32;
import static dev.berth.io.onnx.TestModel.attr;
import static dev.berth.io.onnx.TestModel.in;
import static dev.berth.io.onnx.TestModel.out;
import static org.assertj.core.api.Assertions.assertThat;

/** Small graphs whose operator graph is known by hand: joined views, copies, roles, which inputs an output may take. */
class OnnxScheduleTest {

    private static Map<String, Role> roles(Graph g) {
        Map<String, Role> m = new TreeMap<>();
        g.buffers().forEach(b -> m.put(b.name(), b.role()));
        return m;
    }

    private static Graph.Operator op(Graph g, String name) {
        return g.operators().stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
    }

    private static Graph.Overwrite over(String output, String input, Reuse reason) {
        return new Graph.Overwrite(output, input, reason);
    }

    @Test
    void joinedViewsReadTheirBufferAndWriteNothingCopiesMayShareInAnotherOrder() {
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 1, 4).weight("w", 4).ints("shape", 1, 4)
                .node("Relu", "relu", in("x"), out("a"))
                .node("Reshape", "view", in("a", "shape"), out("v"))       // a dies here: v joins a
                .node("Add", "add", in("v", "w"), out("s"))                // the weight is broadcast, only read
                .node("Identity", "copy", in("s"), out("i"))               // s is read later: i is a copy
                .node("Constant", "const", in(), out("k"), attr("value_float", 2f))
                .node("Mul", "mul", in("s", "i"), out("y"))
                .output("y").load();
        Graph g = OnnxSchedule.graph(im);
        assertThat(g.buffers().stream().map(Graph.Buffer::name)).containsExactly("x", "a", "s", "i", "y");
        assertThat(roles(g)).containsExactlyInAnyOrderEntriesOf(Map.of("x", Role.INPUT, "a", Role.INTERMEDIATE,
                "s", Role.INTERMEDIATE, "i", Role.INTERMEDIATE, "y", Role.OUTPUT));
        assertThat(g.operators().stream().map(Graph.Operator::name))
                .containsExactly("relu", "view", "add", "copy", "const", "mul");
        assertThat(g.alignment()).isEqualTo(64);
        assertThat(op(g, "relu").overwrites()).containsExactly(over("a", "x", Reuse.ELEMENTWISE));
        assertThat(op(g, "view").reads()).containsExactly("a");
        assertThat(op(g, "view").writes()).isEmpty();
        assertThat(op(g, "add").reads()).containsExactly("a");
        assertThat(op(g, "add").overwrites()).containsExactly(over("s", "a", Reuse.ELEMENTWISE));
        assertThat(op(g, "copy").overwrites()).containsExactly(over("i", "s", Reuse.VIEW));
        assertThat(op(g, "const").reads()).isEmpty();
        assertThat(op(g, "const").writes()).isEmpty();
        assertThat(op(g, "mul").overwrites()).containsExactly(over("y", "s", Reuse.ELEMENTWISE),
                over("y", "i", Reuse.ELEMENTWISE));

        // the copy is the views' pair: with views only, no order makes s die at it (mul reads s after)
        Schedule views = OrderSearch.search(g, Order.BEST, InPlace.VIEWS);
        assertThat(views.pairs()).isEmpty();
        Schedule all = OrderSearch.search(g, Order.BEST, InPlace.ELEMENTWISE);
        assertThat(all.proved()).isTrue();
        assertThat(all.peak()).isEqualTo(128); // 64 B each: copy and const hold s and i, mul writes y over s
    }

    @Test
    void aBroadcastInputIsNotWrittenOverNorAnotherTypeNorAGraphOutput() {
        ImportedModel im = TestModel.opset(13).input("p", FLOAT, 2, 4).input("q", FLOAT, 4).input("n", INT32, 2, 4)
                .node("Relu", "rq", in("q"), out("q1"))
                .node("Add", "add", in("p", "q1"), out("s"))               // q1 [4] is broadcast to [2, 4]
                .node("Cast", "cast", in("n"), out("f"), attr("to", (long) FLOAT.code()))
                .node("Mul", "mul", in("s", "f"), out("m"))
                .node("Sigmoid", "sig", in("m"), out("y"))
                .output("m").output("y").load();
        Graph g = OnnxSchedule.graph(im);
        assertThat(op(g, "add").overwrites()).containsExactly(over("s", "p", Reuse.ELEMENTWISE));
        assertThat(op(g, "cast").overwrites()).isEmpty();               // the element type changes
        assertThat(op(g, "mul").overwrites()).containsExactly(over("m", "s", Reuse.ELEMENTWISE),
                over("m", "f", Reuse.ELEMENTWISE));
        assertThat(op(g, "sig").overwrites()).isEmpty();                // m is a graph output
        assertThat(roles(g)).containsEntry("m", Role.OUTPUT).containsEntry("y", Role.OUTPUT);
    }

    @Test
    void aGraphInputThatIsAlsoAnOutputIsNeverWrittenOver() {
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 4)
                .node("Relu", "relu", in("x"), out("y"))
                .output("x").output("y").load();
        Graph g = OnnxSchedule.graph(im);
        assertThat(roles(g)).containsExactlyInAnyOrderEntriesOf(Map.of("x", Role.VARIABLE, "y", Role.OUTPUT));
        assertThat(op(g, "relu").overwrites()).isEmpty();
        assertThat(OrderSearch.search(g, Order.FILE, InPlace.NONE).peak()).isEqualTo(128);
    }

    @Test
    void batchNormalizationInPlaceOnlyInInferenceForm() {
        TestModel base = TestModel.opset(13).input("x", FLOAT, 1, 2, 2, 2).weight("g", 2).weight("b", 2)
                .weight("mean", 2).weight("var", 2);
        Graph one = OnnxSchedule.graph(base.node("BatchNormalization", "bn", in("x", "g", "b", "mean", "var"), out("y"))
                .output("y").load());
        assertThat(op(one, "bn").overwrites()).containsExactly(over("y", "x", Reuse.ELEMENTWISE));
        Graph three = OnnxSchedule.graph(TestModel.opset(13).input("x", FLOAT, 1, 2, 2, 2).weight("g", 2).weight("b", 2)
                .weight("mean", 2).weight("var", 2)
                .node("BatchNormalization", "bn", in("x", "g", "b", "mean", "var"), out("y", "rm", "rv"))
                .output("y").output("rm").output("rv").load());
        assertThat(op(three, "bn").overwrites()).isEmpty();
    }

    @Test
    void everyListedOperatorHasAShapeRule() {
        assertThat(Ops.supported()).containsAll(OnnxSchedule.ELEMENTWISE);
        assertThat(OnnxSchedule.ELEMENTWISE).doesNotHaveDuplicates().doesNotContainAnyElementsOf(List.of("Softmax",
                "LogSoftmax", "Cast", "QuantizeLinear", "DequantizeLinear", "Equal", "Dropout", "CumSum"));
    }
}
