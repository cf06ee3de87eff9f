package dev.berth.cli;

import picocli.CommandLine.Option;

import java.util.Optional;

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

    WorkloadSources.OnnxSpaces spaces() {
        return new WorkloadSources.OnnxSpaces(Optional.ofNullable(activations), Optional.ofNullable(weights));
    }
}
