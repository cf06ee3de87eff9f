package dev.berth.io.tflite;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The scratch requests Berth predicts for TFLM's reference kernels are the ones the real TFLM's
 * kernels made (expected/, tflm_plan.scratch_buffers: first and last use, in order, and the size
 * TFLM's planner got, the request rounded up to 16, which is also what Berth reserves) on every
 * model TFLM ran; person_detect_vela's Ethos-U operator is said to be unknown, not guessed.
 */
class TflmKernelsTest {
    @ParameterizedTest
    @MethodSource("dev.berth.io.tflite.TflmGreedyPlannerTest#withKernels")
    void theReferenceKernelsRequestWhatTflmsKernelsRequested(String file) throws Exception {
        ImportedTflite m = TflmGroundTruthTest.load(file);
        TflmKernels.Prediction p = TflmKernels.reference(m.model(), m.view(), file);
        List<TflmScratch> tflm = new ArrayList<>();
        for (JsonNode s : TflmGreedyPlannerTest.expected(file).get("tflm_plan").get("scratch_buffers")) {
            tflm.add(new TflmScratch(s.get("size").asLong(), s.get("first_used").asInt(), s.get("last_used").asInt()));
        }
        if (file.equals("selfie_segmentation.tflite")) {
            // MediaPipe's custom operator ran with a driver-supplied kernel: said, not guessed; the rest predicted
            assertThat(p.unknown()).hasSize(1);
            assertThat(p.unknown().toString()).contains("Convolution2DTransposeBias");
        } else {
            assertThat(p.complete()).as(p.unknown().toString()).isTrue();
        }
        assertThat(p.scratch().stream().map(TflmKernelsTest::rounded).toList()).as(file).containsExactlyElementsOf(tflm);
        assertThat(p.scratch().stream().map(TflmKernelsTest::rounded).toList())
                .containsExactlyElementsOf(TflmGreedyPlannerTest.scratch(file));
        if (file.equals("trained_lstm_int8.tflite")) {
            // the LSTM's four requests: batch 1 x state 20 x int16 cell state = 40 bytes, 48 in TFLM's planner
            assertThat(p.scratch()).extracting(TflmScratch::size).containsExactly(40L, 40L, 40L, 40L);
        }
    }

    private static TflmScratch rounded(TflmScratch s) {
        return new TflmScratch((s.size() + 15) / 16 * 16, s.first(), s.last());
    }

    @Test
    void aCustomOperatorsRequestsAreSaidToBeUnknown() {
        ImportedTflite m = TflmGroundTruthTest.load("person_detect_vela.tflite");
        TflmKernels.Prediction p = TflmKernels.reference(m.model(), m.view(), "vela");
        assertThat(p.scratch()).isEmpty();
        assertThat(p.complete()).isFalse();
        assertThat(p.unknown()).containsExactly(Map.entry("CUSTOM(ethos-u) (a custom operator)", 1));
    }

    @Test
    void kernelLibrariesAreNamed() {
        assertThat(TflmKernels.Library.of("reference")).isEqualTo(TflmKernels.Library.REFERENCE);
        assertThat(TflmKernels.Library.of("other")).isEqualTo(TflmKernels.Library.OTHER);
        assertThatThrownBy(() -> TflmKernels.Library.of("cmsis"))
                .isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.getMessage()).contains("--tflm-kernels: reference", "got cmsis");
                });
    }

    /**
     * A model of one operator {@code op} reading tensors {@code 0..inputs-1} and writing the rest; each
     * tensor {@code shape[k]} of {@code type[k]} (codes of TensorType), with no data.
     */
    private static TflmKernels.Prediction one(int op, int inputs, int[][] shapes, int[] types) {
        org.tensorflow.lite.schema.ModelT m = new org.tensorflow.lite.schema.ModelT();
        m.setVersion(3);
        org.tensorflow.lite.schema.OperatorCodeT code = new org.tensorflow.lite.schema.OperatorCodeT();
        code.setBuiltinCode(op);
        code.setDeprecatedBuiltinCode((byte) Math.min(op, 127));
        m.setOperatorCodes(new org.tensorflow.lite.schema.OperatorCodeT[] {code});
        org.tensorflow.lite.schema.TensorT[] tensors = new org.tensorflow.lite.schema.TensorT[shapes.length];
        for (int k = 0; k < shapes.length; k++) {
            tensors[k] = new org.tensorflow.lite.schema.TensorT();
            tensors[k].setShape(shapes[k]);
            tensors[k].setType((byte) types[k]);
            tensors[k].setName("t" + k);
        }
        org.tensorflow.lite.schema.OperatorT o = new org.tensorflow.lite.schema.OperatorT();
        o.setInputs(IntStream.range(0, inputs).toArray());
        o.setOutputs(IntStream.range(inputs, shapes.length).toArray());
        org.tensorflow.lite.schema.SubGraphT g = new org.tensorflow.lite.schema.SubGraphT();
        g.setTensors(tensors);
        g.setInputs(new int[] {0});
        g.setOutputs(new int[] {shapes.length - 1});
        g.setOperators(new org.tensorflow.lite.schema.OperatorT[] {o});
        m.setSubgraphs(new org.tensorflow.lite.schema.SubGraphT[] {g});
        m.setBuffers(new org.tensorflow.lite.schema.BufferT[] {new org.tensorflow.lite.schema.BufferT()});
        TfliteModel model = TfliteReader.read(ByteBuffer.wrap(m.serializeToBinary()), "one.tflite");
        return TflmKernels.reference(model, TflmView.of(model, "one.tflite"), "one.tflite");
    }

    private static List<Long> sizes(TflmKernels.Prediction p) {
        assertThat(p.scratch()).allSatisfy(s -> assertThat(s.first()).isEqualTo(1).isEqualTo(s.last()));
        return p.scratch().stream().map(TflmScratch::size).toList();
    }

    private static final int F32 = 0;
    private static final int I32 = 2;
    private static final int I16 = 7;
    private static final int I8 = 9;
    private static final int I4 = 17;

    /**
     * The other kernels' formulas, as their Prepare computes them (not run in TFLM: no test model has
     * these operators): int4 weights unpacked, TRANSPOSE_CONV's accumulators, the reductions' index
     * buffers, MIRROR_PAD's, float SVDF's one buffer; ADD_N and a builtin TFLM has no kernel for are
     * said, not guessed; int8 weights request nothing.
     */
    @Test
    void theOtherReferenceKernelsRequestWhatTheirPrepareComputes() {
        int conv = org.tensorflow.lite.schema.BuiltinOperator.CONV_2D;
        assertThat(sizes(one(conv, 2, new int[][] {{1, 8, 8, 4}, {8, 3, 3, 4}, {1, 6, 6, 8}}, new int[] {I8, I4, I8})))
                .containsExactly(288L);
        assertThat(sizes(one(conv, 2, new int[][] {{1, 8, 8, 4}, {8, 3, 3, 4}, {1, 6, 6, 8}}, new int[] {I8, I8, I8})))
                .isEmpty();
        int fc = org.tensorflow.lite.schema.BuiltinOperator.FULLY_CONNECTED;
        assertThat(sizes(one(fc, 2, new int[][] {{1, 10}, {6, 10}, {1, 6}}, new int[] {I8, I4, I8}))).containsExactly(60L);
        int tconv = org.tensorflow.lite.schema.BuiltinOperator.TRANSPOSE_CONV;
        assertThat(sizes(one(tconv, 3, new int[][] {{4}, {2, 3, 3, 2}, {1, 2, 2, 2}, {1, 4, 4, 2}},
                new int[] {I32, I8, I8, I8}))).containsExactly(128L);
        assertThat(sizes(one(tconv, 4, new int[][] {{4}, {2, 3, 3, 2}, {1, 2, 2, 2}, {2}, {1, 4, 4, 2}},
                new int[] {I32, I8, I16, I16, I16}))).containsExactly(256L, 16L);
        int mean = org.tensorflow.lite.schema.BuiltinOperator.MEAN;
        assertThat(sizes(one(mean, 2, new int[][] {{1, 4, 4, 3}, {2}, {1, 3}}, new int[] {I8, I32, I8})))
                .containsExactly(12L, 16L, 8L);
        assertThat(sizes(one(mean, 2, new int[][] {{1, 4, 4, 3}, {2}, {1, 3}}, new int[] {F32, I32, F32})))
                .containsExactly(16L, 8L);
        int max = org.tensorflow.lite.schema.BuiltinOperator.REDUCE_MAX;
        assertThat(sizes(one(max, 2, new int[][] {{1, 4, 4, 3}, {2}, {1, 3}}, new int[] {I8, I32, I8})))
                .containsExactly(16L, 8L);
        int pad = org.tensorflow.lite.schema.BuiltinOperator.MIRROR_PAD;
        assertThat(sizes(one(pad, 2, new int[][] {{1, 4, 4, 3}, {4, 2}, {1, 6, 6, 3}}, new int[] {I8, I32, I8})))
                .containsExactly(16L, 16L);
        int svdf = org.tensorflow.lite.schema.BuiltinOperator.SVDF;
        assertThat(sizes(one(svdf, 5, new int[][] {{2, 10}, {8, 10}, {8, 4}, {4}, {2, 32}, {2, 4}},
                new int[] {F32, F32, F32, F32, F32, F32}))).containsExactly(64L);
        int addN = org.tensorflow.lite.schema.BuiltinOperator.ADD_N;
        TflmKernels.Prediction p = one(addN, 2, new int[][] {{4}, {4}, {4}}, new int[] {F32, F32, F32});
        assertThat(p.scratch()).isEmpty();
        assertThat(p.unknown()).containsOnlyKeys("ADD_N (its requests hold pointers, whose size is the device's)");
        int topk = org.tensorflow.lite.schema.BuiltinOperator.TOPK_V2;
        assertThat(one(topk, 2, new int[][] {{8}, {1}, {2}, {2}}, new int[] {F32, I32, F32, I32}).unknown())
                .containsOnlyKeys("TOPK_V2 (TFLM has no reference kernel for it)");
    }

    /**
     * An SVDF or LSTM of a type its {@code Prepare} refuses (an int16 SVDF input, an int8 LSTM cell
     * state) is said, not predicted with another type's formula.
     */
    @Test
    void typesTheKernelsPrepareRefusesAreSaidNotGuessed() {
        int svdf = org.tensorflow.lite.schema.BuiltinOperator.SVDF;
        TflmKernels.Prediction p = one(svdf, 5, new int[][] {{2, 10}, {8, 10}, {8, 4}, {4}, {2, 32}, {2, 4}},
                new int[] {I16, I8, I16, I32, I16, I16});
        assertThat(p.scratch()).isEmpty();
        assertThat(p.unknown()).containsOnlyKeys("SVDF (its Prepare refuses an input of INT16)");
        int lstm = org.tensorflow.lite.schema.BuiltinOperator.UNIDIRECTIONAL_SEQUENCE_LSTM;
        int[][] shapes = new int[25][];
        int[] types = new int[25];
        for (int k = 0; k < 25; k++) {
            shapes[k] = new int[] {3, 3};
            types[k] = I8;
        }
        shapes[0] = new int[] {2, 7, 5};
        shapes[18] = new int[] {2, 3};
        shapes[19] = new int[] {2, 3};
        shapes[24] = new int[] {2, 7, 3};
        types[19] = I16;
        assertThat(sizes(one(lstm, 24, shapes, types))).containsExactly(12L, 12L, 12L, 12L);
        types[19] = F32;
        assertThat(sizes(one(lstm, 24, shapes, types))).containsExactly(24L, 24L, 24L, 24L);
        types[19] = I8;
        assertThat(one(lstm, 24, shapes, types).unknown())
                .containsOnlyKeys("UNIDIRECTIONAL_SEQUENCE_LSTM (its Prepare refuses a cell state of INT8)");
    }

    /**
     * Through control flow, a request lives as TFLM marks it: a subgraph run by two CALL_ONCE
     * operators gives its SVDF's buffer its step in the first walk to its step in the second (TFLM
     * keeps the first creation and the last use); an SVDF of a subgraph nothing runs is said.
     */
    @Test
    void aRequestOfASubgraphRunTwiceLivesFromItsFirstStepToItsLast() {
        List<TfliteModel.Tensor> chain = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            chain.add(new TfliteModel.Tensor(t, "t" + t, F32, new int[] {1, 4}, Optional.empty(), 0, false));
        }
        int callOnce = org.tensorflow.lite.schema.BuiltinOperator.CALL_ONCE;
        TfliteModel.Subgraph main = new TfliteModel.Subgraph(0, "", chain, new int[] {0}, new int[] {2}, List.of(
                new TfliteModel.Operator(0, 0, callOnce, "", new int[] {0}, new int[] {1}, new int[0], new int[] {1}),
                new TfliteModel.Operator(1, 0, callOnce, "", new int[] {1}, new int[] {2}, new int[0], new int[] {1})));
        int[][] shapes = {{1, 8}, {6, 8}, {6, 2}, {6}, {1, 12}, {1, 6}};
        boolean[] weights = {false, true, true, true, false, false};
        List<TfliteModel.Tensor> svdf = new ArrayList<>();
        for (int t = 0; t < shapes.length; t++) {
            svdf.add(new TfliteModel.Tensor(t, "s" + t, F32, shapes[t], Optional.empty(), weights[t] ? 1 : 0,
                    t == 4));
        }
        int code = org.tensorflow.lite.schema.BuiltinOperator.SVDF;
        TfliteModel.Operator op = new TfliteModel.Operator(0, 1, code, "", new int[] {0, 1, 2, 3, 4}, new int[] {5},
                new int[0], new int[0]);
        TfliteModel.Subgraph called = new TfliteModel.Subgraph(1, "", svdf, new int[] {0}, new int[] {5}, List.of(op));
        TfliteModel.Subgraph never = new TfliteModel.Subgraph(2, "", svdf, new int[] {0}, new int[] {5}, List.of(op));
        TfliteModel m = new TfliteModel(3, "", List.of(main, called, never), new long[] {0, 64}, List.of(),
                Optional.empty(), 0);
        TflmKernels.Prediction p = TflmKernels.reference(m, TflmView.of(m, "calls"), "calls");
        // step 1: CALL_ONCE 0, 2: subgraph 1 entered, 3: its SVDF; 4: CALL_ONCE 1, 5: entered, 6: the SVDF
        assertThat(p.scratch()).containsExactly(new TflmScratch(24, 3, 6));
        assertThat(p.unknown()).containsOnlyKeys("SVDF (in a subgraph nothing runs)");
    }

    @Test
    void scratchBuffersGivenAndPredictedTogetherAreInvalidInput() {
        assertThatThrownBy(() -> new TfliteImport.Options(List.of(), Optional.empty(),
                Optional.empty(), OptionalLong.empty(), List.of(new TflmScratch(16, 0, 0)), false,
                true)).isInstanceOfSatisfying(BerthException.class, e -> {
                    assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                    assertThat(e.getMessage()).contains("either given (1 are) or predicted, not both");
                });
    }
}
