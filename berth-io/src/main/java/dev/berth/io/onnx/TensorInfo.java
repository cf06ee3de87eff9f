package dev.berth.io.onnx;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * What the importer knows about one tensor: element type, concrete shape and, for small
 * tensors it could compute or decode, its values. Weights decode their values only when a
 * consumer needs them (a Reshape's shape, a Resize's scales), so large weights are never copied.
 */
public final class TensorInfo {
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

    /** A tensor whose values are not known. */
    public static TensorInfo of(String name, ElementType type, Shape shape) {
        return new TensorInfo(name, type, shape, null, Optional.empty());
    }

    /** A tensor whose values are known (or not, when {@code values} is empty). */
    public static TensorInfo of(String name, ElementType type, Shape shape, Optional<Values> values) {
        values.ifPresent(v -> {
            if (v.size() != shape.elements()) {
                throw new IllegalArgumentException(name + ": " + v.size() + " values for shape " + shape);
            }
        });
        return new TensorInfo(name, type, shape, null, values);
    }

    /** A tensor whose values are decoded on first request (a weight). */
    public static TensorInfo lazy(String name, ElementType type, Shape shape, Supplier<Optional<Values>> source) {
        return new TensorInfo(name, type, shape, source, null);
    }

    /** The same tensor under another name. */
    public TensorInfo renamed(String newName) {
        return new TensorInfo(newName, type, shape, source, values);
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
