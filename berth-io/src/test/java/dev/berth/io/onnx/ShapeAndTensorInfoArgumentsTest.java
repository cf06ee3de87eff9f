package dev.berth.io.onnx;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Optional;

import static dev.berth.io.InvalidAt.assertInvalidAt;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Shape} and {@link TensorInfo} are public: a caller's bad argument is {@code invalid-input}
 * naming it, a null one a NullPointerException naming it, never an IllegalArgumentException.
 */
class ShapeAndTensorInfoArgumentsTest {
    @Test
    void aNegativeDimensionIsInvalidInputNamingIt() {
        assertInvalidAt(() -> Shape.of(1, 3, -2), "dims[2]", "dims[2]: a dimension is a whole number 0..2^63-1, got -2");
        assertInvalidAt(() -> Shape.of(Arrays.asList(-1L)), "dims[0]", "got -1");
        assertInvalidAt(() -> Shape.of(1, 3).with(0, -5), "dims[0]", "got -5 in [-5, 3]");
        assertThat(Shape.of(0, 3).elements()).isZero();
    }

    @Test
    void nullDimensionsAreNamed() {
        assertThatThrownBy(() -> Shape.of((long[]) null)).isInstanceOf(NullPointerException.class).hasMessage("dims");
        assertThatThrownBy(() -> Shape.of(Arrays.asList(1L, null))).isInstanceOf(NullPointerException.class)
                .hasMessage("dims[1]");
    }

    @Test
    void valuesThatDoNotFillTheShapeAreInvalidInputNamingThem() {
        assertInvalidAt(() -> TensorInfo.of("t", ElementType.INT64, Shape.of(2, 2), Optional.of(Values.ofInts(1, 2, 3))),
                "values", "values: tensor t of shape [2, 2] has 4 elements, but 3 values were given");
        assertThat(TensorInfo.of("t", ElementType.INT64, Shape.of(2, 2), Optional.of(Values.ofInts(1, 2, 3, 4)))
                .values()).isPresent();
    }

    @Test
    void nullArgumentsAreNamed() {
        Shape s = Shape.of(2);
        assertThatThrownBy(() -> TensorInfo.of(null, ElementType.FLOAT, s)).hasMessage("name");
        assertThatThrownBy(() -> TensorInfo.of("t", null, s)).hasMessage("type");
        assertThatThrownBy(() -> TensorInfo.of("t", ElementType.FLOAT, null)).hasMessage("shape");
        assertThatThrownBy(() -> TensorInfo.of("t", ElementType.FLOAT, s, null)).hasMessage("values");
        assertThatThrownBy(() -> TensorInfo.lazy("t", ElementType.FLOAT, s, null)).hasMessage("source");
        assertThatThrownBy(() -> TensorInfo.of("t", ElementType.FLOAT, s).renamed(null)).hasMessage("newName");
    }
}
