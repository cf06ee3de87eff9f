package dev.berth.io.onnx;

import java.util.List;

/** How one operator's outputs follow from its inputs and attributes. */
@FunctionalInterface
interface OpRule {
    /**
     * The outputs the op defines, in order (the node may use fewer). Throws
     * {@code invalid-input} naming the node when the inputs do not allow an answer.
     */
    List<Inferred> infer(Node n);
}
