package dev.berth.io.onnx;

import com.google.protobuf.ByteString;
import dev.berth.TestData;
import dev.berth.failure.BerthException;
import dev.berth.failure.Category;
import dev.berth.io.TargetJson;
import dev.berth.io.onnx.proto.Onnx.ModelProto;
import dev.berth.io.onnx.proto.Onnx.TensorProto;
import dev.berth.target.Target;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static dev.berth.io.onnx.ElementType.FLOAT;
import static dev.berth.io.onnx.TestModel.in;
import static dev.berth.io.onnx.TestModel.out;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Broken files and graphs: each is invalid-input with a message naming what broke, never a stack trace. */
class CorruptModelsTest {
    @TempDir
    Path dir;

    private static void invalid(ThrowableAssert.ThrowingCallable call, String... fragments) {
        assertThatThrownBy(call).isInstanceOfSatisfying(BerthException.class, e -> {
            assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
            assertThat(e.getMessage()).contains(fragments);
        });
    }

    private static final Target NPU_REF = TargetJson.load("npu-ref");

    private ImportedModel load(Path file, String... inputs) {
        return OnnxImport.read(file, NPU_REF, OnnxImport.Options.of(inputs));
    }

    private Path write(String name, byte[] bytes) throws Exception {
        Path p = dir.resolve(name);
        Files.write(p, bytes);
        return p;
    }

    private static TestModel small() {
        return TestModel.opset(13).input("x", FLOAT, 1, 8).weight("w", 8, 4)
                .node("MatMul", in("x", "w"), out("y")).node("Relu", in("y"), out("z")).output("z");
    }

    @Test
    void aSoundFileLoads() throws Exception {
        Path p = write("ok.onnx", small().bytes());
        assertThat(load(p).workload().buffers()).hasSize(4);
    }

    @Test
    void truncatedAtEveryLengthIsInvalidInput() throws Exception {
        byte[] full = small().bytes();
        for (int len = 1; len < full.length; len++) {
            Path p = write("cut.onnx", Arrays.copyOf(full, len));
            int at = len;
            assertThatThrownBy(() -> load(p)).as("cut at %d of %d", at, full.length)
                    .isInstanceOfSatisfying(BerthException.class, e -> {
                        assertThat(e.category()).isEqualTo(Category.INVALID_INPUT);
                        assertThat(e.getMessage()).contains("cut.onnx");
                    });
        }
    }

    @Test
    void truncatedInsideTheWeightsSaysTruncated() throws Exception {
        byte[] full = small().bytes();
        Path p = write("half.onnx", Arrays.copyOf(full, full.length / 2));
        invalid(() -> load(p), "half.onnx", "not a valid ONNX model", "truncated", "near byte");
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.999, 0.5, 0.1})
    void truncatedRealModel(double fraction) throws Exception {
        byte[] full = Files.readAllBytes(TestData.require("models/ch_ppocr_mobile_v2.0_cls_infer.onnx"));
        Path p = write("cls_cut.onnx", Arrays.copyOf(full, (int) (full.length * fraction)));
        invalid(() -> load(p, "x=1x3x48x192"), "cls_cut.onnx", "truncated");
    }

    @Test
    void emptyFile() throws Exception {
        Path p = write("empty.onnx", new byte[0]);
        invalid(() -> load(p), "empty.onnx", "empty");
    }

    @Test
    void notProtobufAtAll() throws Exception {
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'};
        invalid(() -> load(write("image.onnx", png)), "image.onnx", "not a valid ONNX model");
        byte[] json = "{\"graph\": {\"node\": []}}\n".getBytes(StandardCharsets.UTF_8);
        invalid(() -> load(write("text.onnx", json)), "text.onnx", "not");
    }

    @Test
    void seededGarbageIsAlwaysInvalidInput() throws Exception {
        Random rnd = new Random(20240611L);
        for (int i = 0; i < 200; i++) {
            byte[] junk = new byte[1 + rnd.nextInt(300)];
            rnd.nextBytes(junk);
            Path p = write("junk.onnx", junk);
            int k = i;
            assertThatThrownBy(() -> load(p)).as("garbage #%d", k).isInstanceOfSatisfying(BerthException.class,
                    e -> assertThat(e.category()).isEqualTo(Category.INVALID_INPUT));
        }
    }

    @Test
    void protobufThatIsNotAModel() throws Exception {
        // another message's bytes: its fields do not fit ModelProto's
        byte[] tensor = TensorProto.newBuilder().setName("t").setDataType(1).addDims(1).build().toByteArray();
        invalid(() -> load(write("tensor.onnx", tensor)), "tensor.onnx", "not a valid ONNX model");
        // well-formed protobuf with a model's metadata but no graph
        byte[] noGraph = ModelProto.newBuilder().setIrVersion(8).setProducerName("p").build().toByteArray();
        invalid(() -> load(write("nograph.onnx", noGraph)), "nograph.onnx", "no graph");
        byte[] noIr = ModelProto.newBuilder().setGraph(small().graph()).build().toByteArray();
        invalid(() -> load(write("noir.onnx", noIr)), "noir.onnx", "ir_version");
    }

    @Test
    void bitFlipsNeverEscapeAsOtherExceptions() throws Exception {
        byte[] full = small().bytes();
        Random rnd = new Random(7L);
        for (int i = 0; i < 300; i++) {
            byte[] b = full.clone();
            b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
            Path p = write("flip.onnx", b);
            try {
                load(p);
            } catch (BerthException e) {
                assertThat(e.category()).as("flip #%d: %s", i, e.getMessage()).isIn(Category.INVALID_INPUT,
                        Category.ARITHMETIC_OVERFLOW);
            }
        }
    }

    @Test
    void weightDataShorterThanItsShape() throws Exception {
        TensorProto bad = TensorProto.newBuilder().setName("w").setDataType(FLOAT.code()).addDims(8).addDims(4)
                .setRawData(ByteString.copyFrom(new byte[100])).build();
        TestModel m = TestModel.opset(13).input("x", FLOAT, 1, 8).initializer(bad)
                .node("MatMul", in("x", "w"), out("y")).output("y");
        invalid(() -> load(write("short.onnx", m.bytes())), "initializer 'w'", "128 bytes", "has 100");
    }

    @Test
    void aNodeWithAMissingInput() throws Exception {
        TestModel m = TestModel.opset(13).input("x", FLOAT, 2).node("Add", "add7", in("x", "nowhere"), out("y")).output("y");
        invalid(() -> load(write("missing.onnx", m.bytes())), "add7", "(Add)", "input 'nowhere'", "not produced by any node");
    }

    @Test
    void aCycleNamesItsNodes() throws Exception {
        TestModel m = TestModel.opset(13).input("x", FLOAT, 2)
                .node("Add", "a", in("x", "c"), out("b"))
                .node("Relu", "r", in("b"), out("c"))
                .node("Neg", "n", in("x"), out("y")).output("y");
        invalid(() -> load(write("cycle.onnx", m.bytes())), "cycle", "node 'a' (Add)", "node 'r' (Relu)");
    }

    @Test
    void anUnknownOpNamesNodeAndOp() throws Exception {
        TestModel m = TestModel.opset(13).input("x", FLOAT, 2).node("FancyAttention", "fa0", in("x"), out("y")).output("y");
        invalid(() -> load(write("unknown.onnx", m.bytes())), "fa0", "unsupported operator 'FancyAttention'");
    }

    @Test
    void anotherDomainIsNotSupported() throws Exception {
        ModelProto.Builder mb = small().model().toBuilder();
        mb.getGraphBuilder().getNodeBuilder(1).setDomain("com.microsoft");
        invalid(() -> load(write("domain.onnx", mb.build().toByteArray())), "domain 'com.microsoft'");
    }

    @Test
    void aTensorProducedTwice() throws Exception {
        TestModel m = TestModel.opset(13).input("x", FLOAT, 2).node("Relu", "r1", in("x"), out("y"))
                .node("Neg", "n1", in("x"), out("y")).output("y");
        invalid(() -> load(write("twice.onnx", m.bytes())), "'y' is produced by", "r1", "n1");
    }

    @Test
    void aGraphOutputNobodyProduces() throws Exception {
        TestModel m = TestModel.opset(13).input("x", FLOAT, 2).node("Relu", in("x"), out("y")).output("ghost");
        invalid(() -> load(write("ghost.onnx", m.bytes())), "graph output 'ghost'");
    }

    @Test
    void noDefaultOpset() throws Exception {
        ModelProto noOpset = small().model().toBuilder().clearOpsetImport().build();
        invalid(() -> load(write("opset.onnx", noOpset.toByteArray())), "opset");
    }

    @Test
    void missingFile() {
        invalid(() -> load(dir.resolve("nope.onnx")), "no such file", "nope.onnx");
    }
}
