package dev.berth.io.onnx;

import dev.berth.workload.Lifetime;

import java.util.Optional;

/**
 * One tensor of an imported model as the workload sees it.
 *
 * @param name   the tensor's name (its ONNX name; prefixed by the branch path when an inlined branch reused it)
 * @param kind   graph input, activation (node output), weight, or an If output naming a branch's tensor
 * @param type   element type
 * @param shape  concrete shape
 * @param bytes  elements × element size
 * @param live   the tensor's own steps: producer (0 for inputs and weights) to last reader
 *               (the last step for graph outputs and weights)
 * @param buffer the workload buffer that holds its bytes (itself, the buffer a view shares, or
 *               for an If output the buffer of the branch's tensor)
 * @param aliasOf for an If output, the branch output it is (itself possibly the output of a nested If)
 */
public record TensorRecord(String name, Kind kind, ElementType type, Shape shape, long bytes, Lifetime live,
                           String buffer, Optional<String> aliasOf) {

    /** What a tensor is. */
    public enum Kind {
        INPUT("input"), ACTIVATION("activation"), WEIGHT("weight"), IF_OUTPUT("if-output");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }
    }

    /** True for tensors planned in the activation space (graph inputs and node outputs). */
    public boolean activation() {
        return kind == Kind.INPUT || kind == Kind.ACTIVATION;
    }
}
