package dev.berth.io.onnx;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The operators Berth infers shapes for (default ONNX domain). {@code Constant} and {@code If}
 * are handled by the importer itself: a Constant's output is a weight, an If is folded.
 */
final class Ops {
    /** Ops whose output is the same bytes as input 0 seen with another shape. */
    public static final List<String> VIEWS = List.of("Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity");

    private static final Map<String, OpRule> RULES = new HashMap<>();

    static {
        ElementwiseOps.register(RULES);
        TensorOps.register(RULES);
        NeuralOps.register(RULES);
    }

    private Ops() {
    }

    static Optional<OpRule> rule(String op) {
        return Optional.ofNullable(RULES.get(op));
    }

    /** Every supported op name, sorted (for messages and the README). */
    public static List<String> supported() {
        TreeSet<String> s = new TreeSet<>(RULES.keySet());
        s.add("Constant");
        s.add("If");
        return List.copyOf(s);
    }
}
