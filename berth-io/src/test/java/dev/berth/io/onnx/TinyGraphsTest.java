package dev.berth.io.onnx;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.io.TargetJson;
import dev.berth.io.onnx.proto.Onnx.GraphProto;
import dev.berth.io.onnx.proto.Onnx.NodeProto;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Lifetime;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.berth.io.onnx.ElementType.BOOL;
import static dev.berth.io.onnx.ElementType.FLOAT;
import static dev.berth.io.onnx.TestModel.attr;
import static dev.berth.io.onnx.TestModel.in;
import static dev.berth.io.onnx.TestModel.out;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Small graphs whose every buffer size and lifetime is known by hand. */
class TinyGraphsTest {

    /** name → "space size [first, last]" of every workload buffer. */
    private static Map<String, String> buffers(ImportedModel im) {
        Map<String, String> m = new TreeMap<>();
        for (BufferSpec b : im.workload().buffers()) {
            m.put(b.name(), b.space().name() + " " + b.size() + " " + b.live());
        }
        return m;
    }

    @Test
    void chainLivesFromProducerToLastReader() {
        // step 0: a = Relu(x); step 1: b = Sigmoid(a); step 2: c = Add(a, b)
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 1, 4)
                .node("Relu", in("x"), out("a"))
                .node("Sigmoid", in("a"), out("b"))
                .node("Add", in("a", "b"), out("c")).output("c").load();
        assertThat(buffers(im)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "x", "global 16 [0, 0]",
                "a", "global 16 [0, 2]",
                "b", "global 16 [1, 2]",
                "c", "global 16 [2, 2]"));
        assertThat(im.workload().steps()).isEqualTo(3);
        assertThat(im.naiveTotal()).isEqualTo(64);
        assertThat(im.unsharedPeakLive()).isEqualTo(48);
        // deterministic order: graph inputs, then activations by producer step
        assertThat(im.workload().buffers().stream().map(BufferSpec::name)).containsExactly("x", "a", "b", "c");
    }

    @Test
    void anUnsortedFileIsOrderedTopologicallyEarliestReadyNodeFirst() {
        // listed as Add, Neg, Relu: Add needs both, so the steps are Neg (listed 2nd), Relu (3rd), Add
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 2)
                .node("Add", in("a", "b"), out("c"))
                .node("Neg", in("x"), out("b"))
                .node("Relu", in("x"), out("a")).output("c").load();
        assertThat(im.steps().stream().map(ImportedModel.StepInfo::op)).containsExactly("Neg", "Relu", "Add");
        assertThat(buffers(im)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "x", "global 8 [0, 1]",
                "b", "global 8 [0, 2]",
                "a", "global 8 [1, 2]",
                "c", "global 8 [2, 2]"));
    }

    @Test
    void graphInputsStartAtZeroAndOutputsReachTheLastStep() {
        // x is first read at step 1; a is a graph output produced at step 0
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 2).input("u", FLOAT, 3)
                .node("Relu", in("u"), out("a"))
                .node("Neg", in("x"), out("b"))
                .node("Sigmoid", in("b"), out("c")).output("a").output("c").load();
        assertThat(buffers(im)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "x", "global 8 [0, 1]",
                "u", "global 12 [0, 0]",
                "a", "global 12 [0, 2]",
                "b", "global 8 [1, 2]",
                "c", "global 8 [2, 2]"));
    }

    @Test
    void weightsAndConstantsLiveOverEveryStepInTheConstantSpace() {
        // step 0: the Constant; step 1: Gemm; step 2: Add
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 2, 4).weight("W", 4, 3)
                .node("Constant", in(), out("bias"), attr("value", TestModel.floatTensor("v", 3)))
                .node("Gemm", in("x", "W"), out("g"))
                .node("Add", in("g", "bias"), out("y")).output("y").load();
        assertThat(buffers(im)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "x", "global 32 [0, 1]",
                "g", "global 24 [1, 2]",
                "y", "global 24 [2, 2]",
                "W", "weights 48 [0, 2]",
                "bias", "weights 12 [0, 2]"));
        assertThat(im.weightBytes()).isEqualTo(60);
        assertThat(im.naiveTotal()).isEqualTo(80);
    }

    @Test
    void unusedInitializersAndUnreadOutputs() {
        // b is never read: it lives only at its producer's step; W2 is never read: not planned
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 4).weight("W2", 100)
                .node("Split", in("x"), out("a", "b"), attr("axis", 0L))
                .node("Relu", in("a"), out("c")).output("c").load();
        assertThat(buffers(im)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "x", "global 16 [0, 0]",
                "a", "global 8 [0, 1]",
                "b", "global 8 [0, 0]",
                "c", "global 8 [1, 1]"));
    }

    @Test
    void aViewJoinsItsInputsBufferWhenTheInputDiesThere() {
        // step 0: a = Relu(x); step 1: r = Reshape(a) (a dies); step 2: s = Sigmoid(r)
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 2, 3).ints("shape", 6)
                .node("Relu", in("x"), out("a"))
                .node("Reshape", in("a", "shape"), out("r"))
                .node("Sigmoid", in("r"), out("s")).output("s").load();
        assertThat(buffers(im)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "x", "global 24 [0, 0]",
                "a", "global 24 [0, 2]",
                "s", "global 24 [2, 2]",
                "shape", "weights 8 [0, 2]"));
        assertThat(TestModel.byName(im).get("r").buffer()).isEqualTo("a");
        assertThat(TestModel.byName(im).get("r").live()).isEqualTo(new Lifetime(1, 2));
        assertThat(im.viewsShared()).hasSize(1);
        // sharing saves the view's bytes: without it 4 tensors of 24 bytes would be 96
        assertThat(im.naiveTotal()).isEqualTo(96);
    }

    @Test
    void aViewGetsItsOwnBufferWhenItsInputLivesOn() {
        // step 0: a = Relu(x); step 1: f = Flatten(a); step 2: y = Add(a, f): a is read after the view
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 1, 4)
                .node("Relu", in("x"), out("a"))
                .node("Flatten", in("a"), out("f"))
                .node("Add", in("a", "f"), out("y")).output("y").load();
        assertThat(buffers(im)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "x", "global 16 [0, 0]",
                "a", "global 16 [0, 2]",
                "f", "global 16 [1, 2]",
                "y", "global 16 [2, 2]"));
        assertThat(im.viewsShared()).isEmpty();
    }

    @Test
    void chainsOfViewsShareOneBufferStartingAtAGraphInput() {
        // x dies at Unsqueeze (step 0), u at Squeeze (1), q at Identity (2): all one buffer x; step 3 reads i
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 3, 5).ints("ax", 0)
                .node("Unsqueeze", in("x", "ax"), out("u"))
                .node("Squeeze", in("u", "ax"), out("q"))
                .node("Identity", in("q"), out("i"))
                .node("Relu", in("i"), out("y")).output("y").load();
        assertThat(buffers(im)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "x", "global 60 [0, 3]",
                "y", "global 60 [3, 3]",
                "ax", "weights 8 [0, 3]"));
        Map<String, TensorRecord> t = TestModel.byName(im);
        assertThat(List.of(t.get("u").buffer(), t.get("q").buffer(), t.get("i").buffer())).containsOnly("x");
    }

    @Test
    void aViewOfAWeightIsACopy() {
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 6).weight("w", 2, 3).ints("shape", 6)
                .node("Reshape", in("w", "shape"), out("wf"))
                .node("Add", in("x", "wf"), out("y")).output("y").load();
        assertThat(buffers(im)).containsEntry("wf", "global 24 [0, 1]").containsEntry("w", "weights 24 [0, 1]");
    }

    private static GraphProto branch(String name, String op, String from, String to) {
        return GraphProto.newBuilder().setName(name)
                .addNode(NodeProto.newBuilder().setOpType(op).setName(name + "_" + op).addInput(from).addOutput(to))
                .addOutput(TestModel.valueInfo(to, FLOAT, 2)).build();
    }

    /** x → If(flag) {then: t = Relu(x); else: e = Sigmoid(x)} → y; z = Add(y, x). */
    private static TestModel withIf() {
        GraphProto thenG = GraphProto.newBuilder().setName("then")
                .addNode(NodeProto.newBuilder().setOpType("Relu").setName("then_relu").addInput("x").addOutput("t1"))
                .addNode(NodeProto.newBuilder().setOpType("Neg").setName("then_neg").addInput("t1").addOutput("t2"))
                .addOutput(TestModel.valueInfo("t2", FLOAT, 2)).build();
        return TestModel.opset(16).input("x", FLOAT, 2).input("flag", BOOL)
                .node("If", "if0", in("flag"), out("y"), attr("then_branch", thenG),
                        attr("else_branch", branch("else", "Sigmoid", "x", "e1")))
                .node("Add", in("y", "x"), out("z")).output("z");
    }

    @Test
    void ifWithAKnownConditionIsReplacedByTheBranchTaken() {
        ImportedModel taken = withIf().load("flag=1");
        assertThat(taken.steps().stream().map(ImportedModel.StepInfo::op)).containsExactly("Relu", "Neg", "Add");
        assertThat(buffers(taken)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "x", "global 8 [0, 2]",
                "flag", "global 1 [0, 0]",
                "t1", "global 8 [0, 1]",
                "t2", "global 8 [1, 2]",
                "z", "global 8 [2, 2]"));
        TensorRecord y = TestModel.byName(taken).get("y");
        assertThat(y.kind()).isEqualTo(TensorRecord.Kind.IF_OUTPUT);
        assertThat(y.aliasOf()).contains("t2");
        assertThat(y.buffer()).isEqualTo("t2");
        assertThat(taken.foldedIfs()).singleElement().asString().contains("if0", "then_branch");

        ImportedModel other = withIf().load("flag=0");
        assertThat(other.steps().stream().map(ImportedModel.StepInfo::op)).containsExactly("Sigmoid", "Add");
        assertThat(buffers(other)).containsEntry("e1", "global 8 [0, 1]").doesNotContainKey("t1");
    }

    @Test
    void ifWithAnUnknownConditionIsInvalidAndSaysWhatToFix() {
        assertThatThrownBy(() -> withIf().load()).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.getMessage()).contains("if0", "(If)", "condition 'flag'", "--input NAME=VALUE",
                    "scalar inputs without a value: flag");
        });
    }

    @Test
    void aBranchReusingAMainGraphNameIsRenamed() {
        GraphProto thenG = branch("then", "Relu", "x", "t");
        TestModel m = TestModel.opset(16).input("x", FLOAT, 2).input("flag", BOOL)
                .node("If", "if0", in("flag"), out("y"), attr("then_branch", thenG),
                        attr("else_branch", branch("else", "Sigmoid", "x", "t")))
                .node("Neg", in("y"), out("t")).output("t");
        ImportedModel im = m.load("flag=1");
        assertThat(buffers(im)).containsOnlyKeys("x", "flag", "if0/then_branch/t", "t");
        assertThat(TestModel.byName(im).get("y").aliasOf()).contains("if0/then_branch/t");
    }

    @Test
    void theTinyPlanIsValidAndItsPeakIsExact() {
        ImportedModel im = TestModel.opset(13).input("x", FLOAT, 1, 4)
                .node("Relu", in("x"), out("a"))
                .node("Sigmoid", in("a"), out("b"))
                .node("Add", in("a", "b"), out("c")).output("c").load();
        PlanResult r = Planner.plan(TargetJson.load("npu-ref"), im.workload(), Planner.Options.defaults());
        // npu-ref's global space aligns to 64: three 16-byte tensors live at step 2, 64 bytes each reserved,
        // plus npu-ref's instruction stream (16 bytes x 3 steps = 48, reserved 64) live over every step
        assertThat(r.plan().spaces().get("global").peakLive()).isEqualTo(3 * 64 + 64);
        assertThat(r.plan().spaces().get("global").highWater()).isEqualTo(3 * 64 + 64);
        assertThat(r.plan().spaces().get("global").generationOverhead()).isEqualTo(64);
    }
}
