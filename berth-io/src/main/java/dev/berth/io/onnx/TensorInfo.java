package dev.berth.io.onnx;

import dev.berth.failure.Require;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the importer knows about one tensor: element type, concrete shape and, for small
 * tensors it could compute or decode, its values. Weights decode their values only when a
 * consumer needs them (a Reshape's shape, a Resize's scales), so large weights are never copied.
 */
final class TensorInfo {
    private final String name;
    private final ElementType type;
    private final Shape shape;
    private Supplier<Optional<Values>> source;
    private Optional<Values> values;

    private TensorInfo(String name, ElementType type, Shape shape, Supplier<Optional<Values>> source,
                       Optional<Values> values) {
        this.name = name;
        this.type = type;
        this.shape = shape;
        this.source = source;
        this.values = values;
    }

    /** A tensor whose values are not known; a null argument is a NullPointerException naming it. */
    public static TensorInfo of(String name, ElementType type, Shape shape) {
        return of(name, type, shape, Optional.empty());
    }

    /**
     * A tensor whose values are known (or not, when {@code values} is empty): one value per element
     * of {@code shape}, else {@code invalid-input} naming {@code values} and the tensor; a null
     * argument is a NullPointerException naming it.
     */
    public static TensorInfo of(String name, ElementType type, Shape shape, Optional<Values> values) {
        checked(name, type, shape);
        Require.nonNull(values, "values");
        if (values.isPresent() && values.get().size() != shape.elements()) {
            throw Require.invalid("values", Long.toString(values.get().size()), "tensor " + name + " of "
                    + "shape " + shape + " has " + shape.elements() + " elements, but " + values.get().size()
                    + " values were given");
        }
        return new TensorInfo(name, type, shape, null, values);
    }

    /** A tensor whose values are decoded on first request (a weight); a null argument is a NullPointerException naming it. */
    public static TensorInfo lazy(String name, ElementType type, Shape shape, Supplier<Optional<Values>> source) {
        checked(name, type, shape);
        return new TensorInfo(name, type, shape, Require.nonNull(source, "source"), null);
    }

    private static void checked(String name, ElementType type, Shape shape) {
        Require.nonNull(name, "name");
        Require.nonNull(type, "type");
        Require.nonNull(shape, "shape");
    }

    /** The same tensor under another name. */
    public TensorInfo renamed(String newName) {
        return new TensorInfo(Require.nonNull(newName, "newName"), type, shape, source, values);
    }

    public String name() {
        return name;
    }

    public ElementType type() {
        return type;
    }

    public Shape shape() {
        return shape;
    }

    /** The tensor's values, when known; decodes a weight's data the first time. */
    public synchronized Optional<Values> values() {
        if (values == null) {
            values = source.get();
            source = null;
        }
        return values;
    }

    /** Bytes the tensor occupies: elements × element size (checked). */
    public long bytes() {
        return type.bytes(shape.elements(), name);
    }

    @Override
    public String toString() {
        return name + ": " + type + shape;
    }
}
