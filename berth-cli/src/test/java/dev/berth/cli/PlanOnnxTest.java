package dev.berth.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.TestData;
import dev.berth.io.PlanJson;
import dev.berth.io.onnx.proto.Onnx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code berth plan MODEL.onnx --input ...} end to end. */
class PlanOnnxTest {
    @TempDir
    Path dir;

    private static String model(String name) {
        return TestData.require("models/" + name).toString();
    }

    @Test
    void printsTheNaiveTotalPeakLiveAndHighWater() {
        Run r = Run.of("plan", model("ch_ppocr_mobile_v2.0_cls_infer.onnx"), "--input", "x=1x3x48x192");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("global", "weights", "naive total (own buffer each, no reuse):",
                "13382720 B", "peak live (lower bound of any placement):  485376 B", "high-water (this plan):",
                "1 view shares its input's buffer (Reshape");
    }

    @Test
    void sileroFoldsItsIfWithTheSampleRateFixed() {
        Run r = Run.of("plan", model("silero_vad_legacy.onnx"), "--input", "input=1x1536", "--input", "sr=16000");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("If folded: If_25: condition 'onnx::Cast_125' is true, took then_branch");
    }

    /** A node's name read from the model reaches the "If folded" line only as codes (contract §7). */
    @Test
    void aFoldedIfNamedWithControlCharactersIsPrintedVisibly() throws IOException {
        Onnx.ModelProto.Builder m = Onnx.ModelProto.parseFrom(
                Files.readAllBytes(Path.of(model("silero_vad_legacy.onnx")))).toBuilder();
        int renamed = 0;
        for (Onnx.NodeProto.Builder n : m.getGraphBuilder().getNodeBuilderList()) {
            if (n.getOpType().equals("If")) {
                n.setName(n.getName().replace("_", "\u001b[2J\n"));
                renamed++;
            }
        }
        assertThat(renamed).isPositive();
        Path edited = Files.write(dir.resolve("silero.onnx"), m.build().toByteArray());
        Run r = Run.of("plan", edited.toString(), "--input", "input=1x1536", "--input", "sr=16000");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("If folded: If\\u001b[2J\\u000a25: condition").doesNotContain("\u001b");
    }

    @Test
    void sileroWithoutTheSampleRateSaysWhatToFix() {
        Run r = Run.of("plan", model("silero_vad_legacy.onnx"), "--input", "input=1x1536");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("invalid-input", "If_25", "--input NAME=VALUE", "sr");
    }

    @Test
    void aSymbolicInputWithoutItsShape() {
        Run r = Run.of("plan", model("ch_PP-OCRv4_det_infer.onnx"));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("graph input 'x'", "--input x=");
    }

    @Test
    void writesAPlanAndPrintsOnlyJsonWithJson() throws Exception {
        Path out = dir.resolve("hello.json");
        Run r = Run.of("plan", model("hello_deepa.onnx"), "-o", out.toString(), "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(r.out());
        // the activations' peak (onnxruntime's 9,728 B without the input, which Flatten shares) plus npu-ref's
        // instruction stream live throughout: 16 bytes x 29 steps = 464, reserved 512 at alignment 64
        JsonNode global = j.get("spaces").get("global");
        assertThat(global.get("generationOverhead").asLong()).isEqualTo(512);
        assertThat(global.get("peakLive").asLong()).isEqualTo(9728 + 512);
        assertThat(PlanJson.read(out).workload()).isEqualTo("hello_deepa");
    }

    @Test
    void spacesCanBeChosen() {
        Run sram = Run.of("plan", model("hello_deepa.onnx"), "--activation-space", "sram");
        assertThat(sram.exit()).as(sram.err()).isZero();
        assertThat(sram.out()).contains("activations in sram");
        Run tooBig = Run.of("plan", model("ch_ppocr_mobile_v2.0_cls_infer.onnx"), "--input", "x=1x3x48x192",
                "--activation-space", "sram", "--time-limit", "0.2");
        assertThat(tooBig.exit()).isEqualTo(5);
        Run unknown = Run.of("plan", model("hello_deepa.onnx"), "--weight-space", "rom");
        assertThat(unknown.exit()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown space 'rom'");
    }

    @Test
    void onnxOptionsOnAJsonWorkloadAreRejected() throws Exception {
        Path w = dir.resolve("w.json");
        Files.writeString(w, "{\"workload\": \"w\", \"buffers\": []}");
        assertThat(Run.of("plan", w.toString(), "--activation-space", "global").exit()).isEqualTo(2);
        assertThat(Run.of("plan", w.toString(), "--input", "x=1").exit()).isEqualTo(2);
    }
}
