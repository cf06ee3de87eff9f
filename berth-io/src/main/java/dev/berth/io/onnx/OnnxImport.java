package dev.berth.io.onnx;

import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.failure.Require;
import dev.berth.io.model.InputFix;
import dev.berth.io.model.ModelSpaces;
import dev.berth.io.onnx.proto.Onnx.ModelProto;
import dev.berth.target.Target;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * ONNX model → workload: read the file, fix the graph inputs, infer shapes (folding constant
 * chains and If nodes), then build the buffers of the activations and the weights.
 */
public final class OnnxImport {

    /**
     * @param inputs          {@code --input} texts: {@code NAME=1x3x640x640} or {@code NAME=VALUE}
     * @param activationSpace where activations and graph inputs go; default {@code global}, else
     *                        the target's only logical space
     * @param constantSpace   where weights go; default {@code weights}, else the target's only
     *                        external space, else the activation space
     */
    public record Options(List<String> inputs, Optional<String> activationSpace, Optional<String> constantSpace) {
        public Options {
            inputs = List.copyOf(inputs);
        }

        public static Options of(String... inputs) {
            return new Options(List.of(inputs), Optional.empty(), Optional.empty());
        }
    }

    private OnnxImport() {
    }

    /** Imports a model file. */
    public static ImportedModel read(Path file, Target target, Options options) {
        String fileName = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        return convert(OnnxReader.read(file), file.toString(), stem(fileName), target, options);
    }

    /** Imports a model held in memory; {@code fileName} names it. */
    public static ImportedModel read(byte[] bytes, String fileName, Target target, Options options) {
        return convert(OnnxReader.read(bytes, fileName), fileName, stem(fileName), target, options);
    }

    private static String stem(String fileName) {
        return fileName.toLowerCase(Locale.ROOT).endsWith(".onnx")
                ? fileName.substring(0, fileName.length() - 5) : fileName;
    }

    private static ImportedModel convert(ModelProto model, String what, String name, Target target, Options options) {
        String act = ModelSpaces.activations(target, options.activationSpace(), List.of("global"), "activations'");
        String con = ModelSpaces.constants(target, options.constantSpace(), List.of("weights"), act);
        try {
            ImportedGraph g = GraphImporter.run(model, what, InputFix.parse(options.inputs()));
            return WorkloadBuilder.build(name, g, target.space(act, "--activation-space"), target.space(con, "--constant-space"));
        } catch (BerthException e) {
            if (e.category() != Category.ARITHMETIC_OVERFLOW) {
                throw e;
            }
            // a tensor whose element count or byte size passes 2^63-1: the file claims what no plan can
            // hold, which is bad input (contract §2), not planning arithmetic
            throw Require.invalid(what, "a tensor of this model is larger than 2^63-1 bytes ("
                    + e.failure().message() + ")");
        }
    }
}
