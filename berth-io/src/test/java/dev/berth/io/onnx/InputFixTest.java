package dev.berth.io.onnx;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Failure;
import dev.berth.io.model.InputFix;
import dev.berth.io.onnx.proto.Onnx.AttributeProto;
import dev.berth.io.onnx.proto.Onnx.GraphProto;
import dev.berth.io.onnx.proto.Onnx.NodeProto;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static dev.berth.io.onnx.ElementType.FLOAT;
import static dev.berth.io.onnx.ElementType.INT32;
import static dev.berth.io.onnx.ElementType.INT64;
import static dev.berth.io.onnx.TestModel.in;
import static dev.berth.io.onnx.TestModel.out;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** {@code --input NAME=DIMS} and {@code --input NAME=VALUE}. */
class InputFixTest {

    private static void invalid(ThrowableAssert.ThrowingCallable call, String... fragments) {
        assertThatThrownBy(call).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.getMessage()).contains(fragments);
        });
    }

    @Test
    void parsesShapesValuesAndNamesWithColonsOrEquals() {
        assertThat(InputFix.parse("x=1x3x640x640").numbers()).containsExactly(1, 3, 640, 640);
        assertThat(InputFix.parse("sr=16000").numbers()).containsExactly(16000);
        InputFix odd = InputFix.parse("onnx::Flatten_0=1X25x96");
        assertThat(odd.name()).isEqualTo("onnx::Flatten_0");
        assertThat(odd.numbers()).containsExactly(1, 25, 96);
        assertThat(InputFix.parse("a=b=2").name()).isEqualTo("a=b");
    }

    @ParameterizedTest
    @ValueSource(strings = {"x", "x=", "=3", "x=1x", "x=1.5", "x=-1x3", "x=1x3x", "x=ab", "x=99999999999999999999"})
    void malformedOptions(String text) {
        invalid(() -> InputFix.parse(text), "--input");
    }

    @Test
    void aNameGivenTwice() {
        invalid(() -> InputFix.parse(List.of("x=1", "x=2")), "given twice");
    }

    /** A silero-like pair of inputs sharing the symbolic dimension 'batch'. */
    private static TestModel shared() {
        return TestModel.opset(13).input("input", FLOAT, "batch", "sequence").input("h", FLOAT, 2, "batch", 64)
                .node("Relu", in("input"), out("a")).node("Relu", in("h"), out("b")).output("a").output("b");
    }

    @Test
    void symbolsBoundByOneInputFixTheOthers() {
        ImportedModel im = shared().load("input=3x1536");
        assertThat(TestModel.byName(im).get("h").shape().dims()).containsExactly(2, 3, 64);
        assertThat(TestModel.byName(im).get("input").bytes()).isEqualTo(3 * 1536 * 4);
    }

    @Test
    void conflictingSymbols() {
        invalid(() -> shared().load("input=3x1536", "h=2x4x64"), "'batch'", "3", "4");
    }

    private static String message(ThrowableAssert.ThrowingCallable call) {
        BerthException e = catchThrowableOfType(BerthException.class, call);
        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
        assertThat(e.failure()).isInstanceOfSatisfying(Failure.InvalidInput.class,
                in -> assertThat(in.path()).contains("--input"));
        return e.failure().message();
    }

    @Test
    void unresolvedSymbolicInputSaysWhatToGiveWithItsRank() {
        // 'h' shares 'batch' with 'input': the one --input for 'input' fixes it, so it is named with it, not asked for
        assertThat(message(() -> shared().load())).isEqualTo("test.onnx: graph input 'input' has shape "
                + "[batch, sequence] with symbolic dimensions 'batch', 'sequence'; fix it with --input input=NxN "
                + "(rank 2: a size for each N), which also fixes 'h'");
    }

    @Test
    void everyInputStillToFixIsListedAtOnceWithItsForm() {
        TestModel m = TestModel.opset(13).input("image", FLOAT, "n", 3, "height", "width").input("mask", FLOAT, -1, 7)
                .input("scale", FLOAT, "n").inputOfNoShape("extra", FLOAT)
                .node("Relu", in("image"), out("a")).node("Relu", in("mask"), out("b")).node("Relu", in("scale"), out("c"))
                .node("Relu", in("extra"), out("d")).output("a").output("b").output("c").output("d");
        assertThat(message(m::load)).isEqualTo("test.onnx: 3 graph inputs to fix, all at once: "
                + "graph input 'image' has shape [n, 3, height, width] with symbolic dimensions 'n', 'height', 'width'; "
                + "fix it with --input image=Nx3xNxN (rank 4: a size for each N), which also fixes 'scale'; "
                + "graph input 'mask' has shape [-1, 7] with an unknown dimension 0; fix it with --input mask=Nx7 "
                + "(rank 2: a size for each N); "
                + "graph input 'extra' has no declared shape; fix it with --input extra=DIMS (its rank is not declared)");
        // a symbol bound by an --input given is written as its size in the others' form
        assertThat(message(() -> m.load("scale=2"))).contains("--input image=2x3xNxN (rank 4", "--input mask=Nx7")
                .doesNotContain("'scale'");
        assertThat(m.load("image=2x3x8x8", "mask=1x7", "extra=5").tensors()).isNotEmpty();
    }

    /** An If branch attribute: {@code to = Relu(from)}. */
    private static AttributeProto branch(String attribute, String from, String to) {
        return TestModel.attr(attribute, GraphProto.newBuilder().setName(attribute)
                .addNode(NodeProto.newBuilder().setOpType("Relu").addInput(from).addOutput(to))
                .addOutput(TestModel.valueInfo(to, FLOAT, "batch")).build());
    }

    @Test
    void withAnIfTheScalarIntegerInputsWithoutAValueAreListedToo() {
        TestModel m = TestModel.opset(16).input("x", FLOAT, "batch").input("flag", ElementType.BOOL)
                .input("sr", INT64).input("f", FLOAT)
                .node("If", "if0", in("flag"), out("y"), branch("then_branch", "x", "t"), branch("else_branch", "x", "e"))
                .output("y");
        assertThat(message(m::load)).isEqualTo("test.onnx: 3 graph inputs to fix, all at once: graph input 'x' has "
                + "shape [batch] with symbolic dimension 'batch'; fix it with --input x=N (rank 1: a size for each N); "
                + "scalar bool input 'flag' has no value, and an If of the model may depend on it: give it with --input "
                + "flag=VALUE; scalar int64 input 'sr' has no value, and an If of the model may depend on it: give it "
                + "with --input sr=VALUE");
        // a value given is not asked for again; a float scalar never is (it cannot be given)
        assertThat(message(() -> m.load("sr=16000"))).contains("'flag'").doesNotContain("'sr'").doesNotContain("'f'");
        // without an If, a scalar without a value is no reason to fail
        TestModel noIf = TestModel.opset(13).input("x", FLOAT, "batch").input("sr", INT64)
                .node("Relu", in("x"), out("y")).output("y");
        assertThat(message(noIf::load)).doesNotContain("sr").startsWith("test.onnx: graph input 'x'");
    }

    @Test
    void rankAndFixedDimensionsMustMatch() {
        invalid(() -> shared().load("input=3x1536x1"), "rank 2", "3 dimensions");
        invalid(() -> shared().load("input=3x1536", "h=5x3x64"), "dimension 0", "fixed to 2", "5");
    }

    @Test
    void anInputTheModelDoesNotHaveListsTheInputs() {
        invalid(() -> shared().load("input=1x10", "inptu=1"), "no input named 'inptu'", "input, h");
    }

    @Test
    void scalarInputsTakeValues() {
        TestModel m = TestModel.opset(13).input("x", FLOAT, 2).input("sr", INT64).input("f", FLOAT).input("k", INT32)
                .node("Relu", in("x"), out("y")).output("y");
        assertThat(m.load("sr=16000").tensors()).isNotEmpty();
        invalid(() -> m.load("sr=1x2"), "scalar", "give its value");
        invalid(() -> m.load("f=3"), "only integer and bool values");
        invalid(() -> m.load("k=3000000000"), "not a value of 'k'");
    }
}
