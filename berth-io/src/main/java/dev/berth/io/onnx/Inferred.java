package dev.berth.io.onnx;

import java.util.Optional;

/** One output as an op's shape rule gives it: type, shape and, when folded, its values. */
record Inferred(ElementType type, Shape shape, Optional<Values> values) {

    public static Inferred of(ElementType type, Shape shape) {
        return new Inferred(type, shape, Optional.empty());
    }

    public static Inferred of(ElementType type, Shape shape, Values values) {
        return new Inferred(type, shape, Optional.of(values));
    }

    /** Same type, shape and values as {@code t}. */
    public static Inferred like(TensorInfo t) {
        return new Inferred(t.type(), t.shape(), t.values());
    }

    /** The output of a view or an elementwise op that keeps its input's type and shape. */
    public static Inferred sameAs(TensorInfo t) {
        return of(t.type(), t.shape());
    }
}
