package dev.berth.io.onnx;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
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

    @Test
    void unresolvedSymbolicInputSaysWhatToGive() {
        invalid(() -> shared().load(), "graph input 'input'", "[batch, sequence]", "--input input=");
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
