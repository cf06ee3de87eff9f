package dev.berth.io.onnx;

import dev.berth.TestData;
import dev.berth.failure.BerthException;
import dev.berth.io.TargetJson;
import dev.berth.io.onnx.proto.Onnx.AttributeProto;
import dev.berth.io.onnx.proto.Onnx.GraphProto;
import dev.berth.io.onnx.proto.Onnx.ModelProto;
import dev.berth.io.onnx.proto.Onnx.NodeProto;
import dev.berth.io.onnx.proto.Onnx.TensorProto;
import dev.berth.target.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real models with seeded random edits to integer attributes and small integer constants (the
 * numbers shapes are computed from): every import either succeeds or fails as a typed
 * {@link BerthException}, never as another exception. {@code -P heavy} runs 300 rounds per model.
 */
class MutatedModelsTest {
    private static final Target NPU_REF = TargetJson.load("npu-ref");
    /** Edited copies per model: few by default, many under {@code -P heavy}. */
    private static final int ROUNDS = Integer.getInteger("berth.mutations", 3);
    private static final long[] NASTY = {-1, 0, 1, 2, 3, 7, -7, Integer.MAX_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 40};

    @ParameterizedTest(name = "{0} seed {2}")
    @CsvSource({
            "hello_deepa.onnx, '', 11",
            "silero_vad_legacy.onnx, 'input=1x1536;sr=16000', 12",
            "ch_ppocr_mobile_v2.0_cls_infer.onnx, 'x=1x3x48x192', 13"})
    void editedModelsFailOnlyAsTypedErrors(String file, String inputs, long seed) {
        Path p = TestData.require("models/" + file);
        ModelProto original = OnnxReader.read(p);
        String[] ins = inputs.isEmpty() ? new String[0] : inputs.split(";");
        Random rnd = new Random(seed);
        int failures = 0;
        for (int round = 0; round < ROUNDS; round++) {
            ModelProto.Builder mb = original.toBuilder();
            GraphProto.Builder g = mb.getGraphBuilder();
            for (int edit = 0; edit < 6; edit++) {
                mutate(g, rnd);
            }
            byte[] bytes = mb.build().toByteArray();
            try {
                OnnxImport.read(bytes, file, NPU_REF, OnnxImport.Options.of(ins));
            } catch (BerthException e) {
                failures++;
                assertThat(e.getMessage()).isNotBlank();
            }
        }
        // the edits are not all harmless: some must have been caught
        assertThat(failures).isPositive();
    }

    private static void mutate(GraphProto.Builder g, Random rnd) {
        if (g.getNodeCount() == 0) {
            return;
        }
        int ni = rnd.nextInt(g.getNodeCount());
        NodeProto.Builder n = g.getNodeBuilder(ni);
        if (n.getOpType().equals("If") && n.getAttributeCount() > 0) {
            AttributeProto.Builder a = n.getAttributeBuilder(rnd.nextInt(n.getAttributeCount()));
            if (a.hasG()) {
                mutate(a.getGBuilder(), rnd);
            }
            return;
        }
        List<Integer> ints = new ArrayList<>();
        for (int i = 0; i < n.getAttributeCount(); i++) {
            AttributeProto a = n.getAttribute(i);
            if (a.hasI() || a.getIntsCount() > 0 || (a.hasT() && a.getT().getDataType() == 7)) {
                ints.add(i);
            }
        }
        if (!ints.isEmpty()) {
            AttributeProto.Builder a = n.getAttributeBuilder(ints.get(rnd.nextInt(ints.size())));
            long v = NASTY[rnd.nextInt(NASTY.length)];
            if (a.hasI()) {
                a.setI(v);
            } else if (a.getIntsCount() > 0) {
                a.setInts(rnd.nextInt(a.getIntsCount()), v);
            } else {
                a.setT(poke(a.getT(), v, rnd));
            }
        } else {
            for (int i = 0; i < g.getInitializerCount(); i++) {
                TensorProto t = g.getInitializer(i);
                if (t.getDataType() == 7 && rnd.nextBoolean()) {
                    g.setInitializer(i, poke(t, NASTY[rnd.nextInt(NASTY.length)], rnd));
                    return;
                }
            }
        }
    }

    /** An int64 tensor with one element replaced (raw or typed storage). */
    private static TensorProto poke(TensorProto t, long v, Random rnd) {
        TensorProto.Builder b = t.toBuilder();
        if (t.getInt64DataCount() > 0) {
            b.setInt64Data(rnd.nextInt(t.getInt64DataCount()), v);
        } else if (t.getRawData().size() >= 8) {
            byte[] raw = t.getRawData().toByteArray();
            int at = 8 * rnd.nextInt(raw.length / 8);
            ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).putLong(at, v);
            b.setRawData(com.google.protobuf.ByteString.copyFrom(raw));
        }
        return b.build();
    }
}
