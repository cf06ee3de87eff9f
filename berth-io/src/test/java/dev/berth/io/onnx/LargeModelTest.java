package dev.berth.io.onnx;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.io.TargetJson;
import dev.berth.io.onnx.proto.Onnx.ModelProto;
import dev.berth.io.onnx.proto.Onnx.TensorProto;
import dev.berth.plan.Planner;
import dev.berth.target.Target;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.berth.io.onnx.ElementType.FLOAT;
import static dev.berth.io.onnx.TestModel.in;
import static dev.berth.io.onnx.TestModel.out;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 400 MB model imports and plans in a JVM whose heap is far smaller than the weights: the
 * reader keeps them in the mapped file. Heavy (writes 400 MB): the default build leaves it out
 * (berth-io's pom); {@code mvn -P heavy verify} runs it, with the test JVM's heap capped at 160 MiB.
 */
class LargeModelTest {
    @TempDir
    Path dir;

    @Test
    void fourHundredMegabytesOfWeightsWithASmallHeap() throws Exception {
        int layers = 100;
        int width = 1024;
        // one shared 4 MiB block of zeros backs every weight while the model is built and written
        ByteString block = UnsafeByteOperations.unsafeWrap(new byte[4 * width * width]);
        TestModel m = TestModel.opset(13).input("x", FLOAT, 1, width);
        String prev = "x";
        for (int i = 0; i < layers; i++) {
            m.initializer(TensorProto.newBuilder().setName("w" + i).setDataType(FLOAT.code()).addDims(width)
                    .addDims(width).setRawData(block).build());
            m.node("MatMul", in(prev, "w" + i), out("h" + i));
            prev = "h" + i;
        }
        m.output(prev);
        ModelProto model = m.model();
        Path file = dir.resolve("large.onnx");
        try (OutputStream os = Files.newOutputStream(file)) {
            model.writeTo(os);
        }
        model = null;
        long weights = (long) layers * block.size();
        assertThat(Files.size(file)).isGreaterThan(weights);
        long maxHeap = Runtime.getRuntime().maxMemory();
        assertThat(maxHeap).as("run under -P heavy (heap capped below the weights)").isLessThan(weights / 2);
        Target npuRef = TargetJson.load("npu-ref");
        ImportedModel im = OnnxImport.read(file, npuRef, OnnxImport.Options.of());
        assertThat(im.weightBytes()).isEqualTo(weights);
        var plan = Planner.plan(npuRef, im.workload(), Planner.Options.defaults()).plan();
        assertThat(plan.spaces().get("weights").highWater()).isEqualTo(weights);
        // npu-ref's generation adds its instruction stream (16 bytes per step) to global, live at every step
        long instructions = plan.buffers().stream().filter(b -> b.origin() == Origin.INSTRUCTIONS)
                .mapToLong(PlannedBuffer::reserved).sum();
        assertThat(instructions).isEqualTo(16L * layers);
        assertThat(plan.spaces().get("global").peakLive()).as("input and output of one MatMul, and the instructions")
                .isEqualTo(2L * 4 * width + instructions);
    }
}
