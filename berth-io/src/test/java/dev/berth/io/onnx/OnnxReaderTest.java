package dev.berth.io.onnx;

import com.google.protobuf.ByteString;
import dev.berth.io.TargetJson;
import dev.berth.io.onnx.proto.Onnx.ModelProto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static dev.berth.io.onnx.ElementType.FLOAT;
import static dev.berth.io.onnx.TestModel.in;
import static dev.berth.io.onnx.TestModel.out;
import static org.assertj.core.api.Assertions.assertThat;

/** The reader keeps one copy of the weights: the mapped file. */
class OnnxReaderTest {
    @TempDir
    Path dir;

    @Test
    void rawDataStaysAViewOfTheMappedFile() throws Exception {
        TestModel m = TestModel.opset(13).input("x", FLOAT, 1, 256).weight("w", 256, 1024)
                .node("MatMul", in("x", "w"), out("y")).output("y");
        Path p = dir.resolve("big.onnx");
        Files.write(p, m.bytes());
        ModelProto model = OnnxReader.read(p);
        ByteString raw = model.getGraph().getInitializer(0).getRawData();
        assertThat(raw.size()).isEqualTo(4 * 256 * 1024);
        // a heap copy would be backed by a byte[]; an aliased one is a slice of the direct, mapped buffer
        assertThat(raw.asReadOnlyByteBuffer().isDirect()).isTrue();
        assertThat(raw.asReadOnlyByteBuffer().hasArray()).isFalse();
    }

    @Test
    void importingReadsNoWeightValuesItDoesNotNeed() throws Exception {
        // the weight is 1 MiB of floats; the import only needs its dims
        TestModel m = TestModel.opset(13).input("x", FLOAT, 1, 256).weight("w", 256, 1024)
                .node("MatMul", in("x", "w"), out("y")).output("y");
        Path p = dir.resolve("m.onnx");
        Files.write(p, m.bytes());
        ImportedModel im = OnnxImport.read(p, TargetJson.load("npu-ref"), OnnxImport.Options.of());
        assertThat(im.weightBytes()).isEqualTo(1 << 20);
        assertThat(TestModel.byName(im).get("y").bytes()).isEqualTo(4096);
    }
}
