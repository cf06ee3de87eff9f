package dev.berth.io.tflite;

import java.util.List;
import java.util.Optional;

/**
 * What Berth reads of a {@code .tflite} file: every subgraph, tensor and operator, the buffers'
 * sizes (never their bytes) and the metadata entries. Indices are the file's own.
 *
 * @param version      the schema version of the model (TFLM accepts 3)
 * @param description  the model's description, or empty
 * @param subgraphs    in file order; subgraph 0 is the one TFLM runs
 * @param bufferBytes  per buffer, the length of its data (0 for an empty buffer)
 * @param metadata     the metadata entries in file order
 * @param fileBytes    the file's size
 */
public record TfliteModel(long version, String description, List<Subgraph> subgraphs, long[] bufferBytes,
                          List<MetadataEntry> metadata, Optional<int[]> offlinePlan, long fileBytes) {
    /** The name of the metadata entry holding TFLM's offline memory plan. */
    public static final String OFFLINE_PLAN = "OfflineMemoryAllocation";

    /**
     * @param offlinePlan the words of an {@link #OFFLINE_PLAN} entry already in the file (version,
     *                    subgraphs, n, then n offsets, -1 for a tensor TFLM plans itself), if any
     */
    public TfliteModel {
        subgraphs = List.copyOf(subgraphs);
        bufferBytes = bufferBytes.clone();
        metadata = List.copyOf(metadata);
        offlinePlan = offlinePlan.map(int[]::clone);
    }

    /** A subgraph: its tensors, inputs and outputs (tensor indices) and operators. */
    public record Subgraph(int index, String name, List<Tensor> tensors, int[] inputs, int[] outputs,
                           List<Operator> operators) {
        public Subgraph {
            tensors = List.copyOf(tensors);
            inputs = inputs.clone();
            outputs = outputs.clone();
            operators = List.copyOf(operators);
        }
    }

    /**
     * A tensor.
     *
     * @param type           the schema's {@code TensorType} code
     * @param shape          the stored shape (empty for a scalar)
     * @param shapeSignature the shape signature (-1 marks a dimension fixed at run time), or empty
     *                       when the file has none
     * @param buffer         the buffer index (0: no data)
     */
    public record Tensor(int index, String name, int type, int[] shape, Optional<int[]> shapeSignature, long buffer,
                         boolean variable) {
        public Tensor {
            shape = shape.clone();
            shapeSignature = shapeSignature.map(int[]::clone);
        }

        /** The name, or {@code tINDEX} when the model has none. */
        public String label() {
            return name.isEmpty() ? "t" + index : name;
        }
    }

    /**
     * An operator.
     *
     * @param builtinCode   max(deprecated_builtin_code, builtin_code) of its operator code
     * @param customCode    the custom code of a CUSTOM operator, else empty
     * @param inputs        tensor indices, -1 for an omitted optional input
     * @param intermediates tensor indices
     * @param calls         subgraphs it invokes, in TFLM's order: IF then, else; WHILE cond, body;
     *                      CALL_ONCE init; empty for other operators
     */
    public record Operator(int index, int opcodeIndex, int builtinCode, String customCode, int[] inputs, int[] outputs,
                           int[] intermediates, int[] calls) {
        public Operator {
            inputs = inputs.clone();
            outputs = outputs.clone();
            intermediates = intermediates.clone();
            calls = calls.clone();
        }

        /** {@code CONV_2D}, {@code CUSTOM(ethos-u)}, or the code in numbers when the schema has no name. */
        public String opName() {
            String n = TfliteTypes.builtinName(builtinCode);
            return customCode.isEmpty() ? n : n + "(" + customCode + ")";
        }
    }

    /** A metadata entry: its name and the buffer that holds its data. */
    public record MetadataEntry(String name, long buffer, long bytes) {
    }

    public int tensorCount() {
        return subgraphs.stream().mapToInt(s -> s.tensors().size()).sum();
    }

    public int operatorCount() {
        return subgraphs.stream().mapToInt(s -> s.operators().size()).sum();
    }
}
