package dev.berth.io.tflite;

import com.google.flatbuffers.FlatBufferBuilder;
import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.BuiltinOptions;
import org.tensorflow.lite.schema.Model;
import org.tensorflow.lite.schema.Operator;
import org.tensorflow.lite.schema.OperatorCode;
import org.tensorflow.lite.schema.SubGraph;
import org.tensorflow.lite.schema.Tensor;
import org.tensorflow.lite.schema.TensorType;
import org.tensorflow.lite.schema.WhileOptions;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * Small .tflite files built with the generated schema's builders, for tests: each subgraph is a
 * chain of tensors (int8 1x4, no data) t0 → op → t1 → op → ...; an operator is a
 * FULLY_CONNECTED or a WHILE that runs two subgraphs.
 */
final class TinyTflite {
    /**
     * One operator: {@code cond} and {@code body} are used for a WHILE ({@code whileOp});
     * {@code optionsType} other than 0 gives a FULLY_CONNECTED that union type code, with a
     * WhileOptions table as its value.
     */
    record Op(boolean whileOp, int cond, int body, int inputs, int optionsType) {
        static Op fc() {
            return new Op(false, 0, 0, 1, 0);
        }

        /** A FULLY_CONNECTED that reads its input {@code inputs} times. */
        static Op fcReading(int inputs) {
            return new Op(false, 0, 0, inputs, 0);
        }

        static Op whileOf(int cond, int body) {
            return new Op(true, cond, body, 1, 0);
        }

        /** A FULLY_CONNECTED whose builtin options have type code {@code type} (a WhileOptions table). */
        static Op fcWithOptionsType(int type) {
            return new Op(false, 0, 0, 1, type);
        }
    }

    /** A subgraph: its operators, chained; {@code type} is the tensors' TensorType. */
    record Graph(List<Op> ops, byte type) {
        static Graph of(Op... ops) {
            return new Graph(List.of(ops), TensorType.INT8);
        }
    }

    private TinyTflite() {
    }

    static byte[] build(Graph... graphs) {
        return build(b -> new int[0], graphs);
    }

    /**
     * As {@link #build(Graph...)}, with more buffers after the empty buffer 0: the tables
     * {@code buffers} adds to the builder.
     */
    static byte[] build(Function<FlatBufferBuilder, int[]> buffers, Graph... graphs) {
        FlatBufferBuilder b = new FlatBufferBuilder(1024);
        int[] extra = buffers.apply(b);
        int[] subgraphs = new int[graphs.length];
        for (int g = 0; g < graphs.length; g++) {
            Graph graph = graphs[g];
            int n = graph.ops().size() + 1;
            int[] tensors = new int[n];
            for (int t = 0; t < n; t++) {
                int shape = Tensor.createShapeVector(b, new int[] {1, 4});
                int name = b.createString("g" + g + "t" + t);
                tensors[t] = Tensor.createTensor(b, shape, graph.type(), 0, name, 0, false, 0, 0, false, 0);
            }
            int[] ops = new int[graph.ops().size()];
            for (int o = 0; o < ops.length; o++) {
                Op op = graph.ops().get(o);
                int[] reads = new int[op.inputs()];
                Arrays.fill(reads, o);
                int in = Operator.createInputsVector(b, reads);
                int out = Operator.createOutputsVector(b, new int[] {o + 1});
                if (op.whileOp()) {
                    int opts = WhileOptions.createWhileOptions(b, op.cond(), op.body());
                    ops[o] = Operator.createOperator(b, 1, in, out, BuiltinOptions.WhileOptions, opts, 0, (byte) 0, 0, 0);
                } else if (op.optionsType() != 0) {
                    int opts = WhileOptions.createWhileOptions(b, 0, 0);
                    ops[o] = Operator.createOperator(b, 0, in, out, (byte) op.optionsType(), opts, 0, (byte) 0, 0, 0);
                } else {
                    ops[o] = Operator.createOperator(b, 0, in, out, (byte) 0, 0, 0, (byte) 0, 0, 0);
                }
            }
            int tv = SubGraph.createTensorsVector(b, tensors);
            int iv = SubGraph.createInputsVector(b, new int[] {0});
            int ov = SubGraph.createOutputsVector(b, new int[] {n - 1});
            int opv = SubGraph.createOperatorsVector(b, ops);
            subgraphs[g] = SubGraph.createSubGraph(b, tv, iv, ov, opv, b.createString("graph" + g));
        }
        int fc = OperatorCode.createOperatorCode(b, (byte) BuiltinOperator.FULLY_CONNECTED, 0, 1,
                BuiltinOperator.FULLY_CONNECTED);
        int wh = OperatorCode.createOperatorCode(b, (byte) BuiltinOperator.WHILE, 0, 1, BuiltinOperator.WHILE);
        int codes = Model.createOperatorCodesVector(b, new int[] {fc, wh});
        int sv = Model.createSubgraphsVector(b, subgraphs);
        org.tensorflow.lite.schema.Buffer.startBuffer(b);
        int empty = org.tensorflow.lite.schema.Buffer.endBuffer(b);
        int[] all = new int[1 + extra.length];
        all[0] = empty;
        System.arraycopy(extra, 0, all, 1, extra.length);
        int bv = Model.createBuffersVector(b, all);
        int model = Model.createModel(b, 3, codes, sv, b.createString("tiny"), bv, 0, 0, 0);
        Model.finishModelBuffer(b, model);
        return b.sizedByteArray();
    }

    /** The position of the length word of subgraph {@code g}'s inputs vector. */
    static int inputsLengthPosition(byte[] file, int g) {
        Model m = Model.getRootAsModel(ByteBuffer.wrap(file));
        ByteBuffer v = m.subgraphs(g).inputsAsByteBuffer();
        return v.position() - 4;
    }

    static List<Graph> chain(int n) {
        List<Graph> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(Graph.of(Op.fc()));
        }
        return l;
    }
}
