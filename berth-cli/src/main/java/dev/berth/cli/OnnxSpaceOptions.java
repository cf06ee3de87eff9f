package dev.berth.cli;

import dev.berth.arith.Sizes;
import picocli.CommandLine.Option;

import java.util.Optional;
import java.util.OptionalLong;

/** {@code plan}'s options for where an ONNX or TFLite model's tensors go (a picocli mixin). */
final class OnnxSpaceOptions {
    @Option(names = "--activation-space", paramLabel = "SPACE",
            description = "ONNX: space for activations and graph inputs (default: global); TFLite: space for the "
                    + "tensors TFLM plans (default: arena, else global).")
    String activations;

    @Option(names = "--weight-space", paramLabel = "SPACE",
            description = "ONNX: space for weights, i.e. initializers and Constant outputs; TFLite: space for "
                    + "constant data (default: flash, else weights, else the target's only external space, else the "
                    + "activation space).")
    String weights;

    @Option(names = "--fast-space", paramLabel = "SPACE",
            description = "ONNX and TFLite: let every activation live in the local space SPACE (the fast memory) "
                    + "instead of its own; Berth chooses which, for the least traffic to slow memory, from each "
                    + "activation's accesses (one write plus one read per reader).")
    String fast;

    @Option(names = "--fast-capacity", paramLabel = "SIZE",
            description = "The capacity of --fast-space's space (added as a local space when the target has none).")
    String fastCapacity;

    WorkloadSources.OnnxSpaces spaces() {
        return new WorkloadSources.OnnxSpaces(Optional.ofNullable(activations), Optional.ofNullable(weights),
                Optional.ofNullable(fast), fastCapacity == null ? OptionalLong.empty()
                : OptionalLong.of(Sizes.parse(fastCapacity, "--fast-capacity")));
    }
}
