package dev.berth.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.TestData;
import dev.berth.artifact.Plan;
import dev.berth.io.PlanJson;
import dev.berth.io.tflite.TfliteReader;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code berth plan WORKLOAD --order file|best --in-place none|views|elementwise} end to end (contract §5.3, §6, §7). */
class OperatorOrderCliTest {
    @TempDir
    Path dir;

    private static String example(String name) {
        return TestData.root().resolve("examples").resolve(name).toString();
    }

    @Test
    void theDefaultsKeepTheListedOrderAndSayWhatOtherSettingsWouldSave() {
        Run r = Run.of("plan", example("block.json"));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains(
                "operators: 7, order file, in-place none: peak live 67,584 B, every order at in-place none: at least 51,200 B\n"
                        + "order best, elementwise in-place: peak live 43,008 B, 36.4 % less\n");
        assertThat(r.out()).doesNotContain("shared pairs", "  order:");
    }

    @Test
    void bestOrderAndElementwisePairsArePlannedProvedAndWrittenAsVersion4() throws Exception {
        Path out = dir.resolve("plan.json");
        Run r = Run.of("plan", example("block.json"), "--order", "best", "--in-place", "elementwise", "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("operators: 7, order best, in-place elementwise: peak live 43,008 B, optimal; "
                + "the file order without reuse: 67,584 B\n", "  order: Pool, Conv, Add, Clip, Mul, Div, Concat\n",
                "  shared pairs (3): clip over plus3 (Clip, elementwise); mul over conv (Mul, elementwise); "
                        + "hswish over mul (Div, elementwise)\n");
        assertThat(r.out()).doesNotContain("% less");
        Plan plan = PlanJson.read(out);
        assertThat(plan.version()).isEqualTo(4);
        assertThat(PlanValidator.validate(plan).valid()).isTrue();
        assertThat(plan.order().orElseThrow()).extracting(o -> o.name())
                .containsExactly("Pool", "Conv", "Add", "Clip", "Mul", "Div", "Concat");
        assertThat(plan.buffer("clip").orElseThrow().sharesWith()).contains("plus3");
        assertThat(plan.buffer("clip").orElseThrow().offset()).isEqualTo(plan.buffer("plus3").orElseThrow().offset());
        // 43,008 B of activations and the 128-byte instruction stream, at the bound
        assertThat(plan.spaces().get("global").peakLive()).isEqualTo(43_008 + 128);
        assertThat(plan.spaces().get("global").highWater()).isEqualTo(43_008 + 128);
        // written back in its version, byte for byte
        assertThat(PlanJson.toBytes(plan)).isEqualTo(Files.readAllBytes(out));
        // and the report made from the file shows the order and the pairs
        Path html = dir.resolve("plan.html");
        Run report = Run.of("report", out.toString(), "-o", html.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(Files.readString(html)).contains("<h2>Operator order</h2>", "7 operators, 3 buffers written over an input",
                "<td class=\"n\">3</td><td>Clip</td><td>plus3</td><td>clip</td><td>clip over plus3</td>");
    }

    @Test
    void jsonHoldsTheOrderAndTheSchedule() throws Exception {
        Run r = Run.of("plan", example("block.json"), "--order", "best", "--in-place", "views", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertThat(j.get("order")).hasSize(7);
        JsonNode s = j.get("schedule");
        assertThat(s.get("order").asText()).isEqualTo("best");
        assertThat(s.get("inPlace").asText()).isEqualTo("views");
        assertThat(s.get("pairs")).isEmpty();
        assertThat(s.get("peak").asLong()).isLessThanOrEqualTo(s.get("filePeak").asLong());
        assertThat(s.get("better").get("inPlace").asText()).isEqualTo("elementwise");
        assertThat(s.get("better").get("peak").asLong()).isEqualTo(43_008);
    }

    private static String model(String name) {
        return TestData.require("models/" + name).toString();
    }

    @Test
    void aModelWithTheDefaultsIsPlannedAsBeforeAndSaysWhatElementwiseInPlaceWouldSave() throws Exception {
        String cls = model("ch_ppocr_mobile_v2.0_cls_infer.onnx");
        Path out = dir.resolve("plan.json");
        Run r = Run.of("plan", cls, "--input", "x=1x3x48x192", "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\nelementwise in-place: peak live 331,776 B, 31.6 % less\n")
                .doesNotContain("operators:");
        assertThat(PlanJson.read(out).version()).isEqualTo(2);
        assertThat(PlanJson.read(out).order()).isEmpty();
    }

    @Test
    void aModelInTheBestOrderWithElementwisePairsReachesTheIssuesBoundProved() throws Exception {
        String cls = model("ch_ppocr_mobile_v2.0_cls_infer.onnx");
        Path out = dir.resolve("plan.json");
        Run r = Run.of("plan", cls, "--input", "x=1x3x48x192", "--order", "best", "--in-place", "elementwise",
                "-o", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("operators: 471, order best, in-place elementwise: peak live 331,776 B, optimal; "
                + "the file order without reuse: 485,376 B\n", "  shared pairs (130): ");
        Plan plan = PlanJson.read(out);
        assertThat(plan.version()).isEqualTo(4);
        assertThat(PlanValidator.validate(plan).valid()).isTrue();
        // 331,776 B of activations below the 7,552-byte instruction stream, proved optimal
        assertThat(plan.spaces().get("global").highWater()).isEqualTo(331_776 + 7_552);
        assertThat(plan.spaces().get("global").optimality().orElseThrow().optimal()).isTrue();
        assertThat(plan.buffers().stream().filter(b -> b.sharesWith().isPresent()).count()).isEqualTo(130);
        assertThat(plan.order().orElseThrow()).hasSize(471);
    }

    @Test
    void aTfliteModelInPlaceIsPlannedAndWrittenAsTflmsOfflinePlanWithItsPairsAtOneOffset() throws Exception {
        String face = model("tflite/face_detection_short_range.tflite");
        Run r = Run.of("plan", face, "--in-place", "elementwise");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("operators: 164, order file, in-place elementwise: peak live 1,310,720 B, every "
                + "order at in-place elementwise: at least 1,182,048 B; the file order without reuse: 1,376,256 B\n");
        // the model rewritten in the chosen order, its pairs at one offset: the file that ran in the real TFLM
        // with the original's outputs and a head of 1,310,720 (testdata/models/tflite/tflm-verification.md)
        Path o = dir.resolve("o.tflite");
        Path p = dir.resolve("p.json");
        Run tflm = Run.of("plan", face, "--order", "best", "--in-place", "elementwise", "--tflm-plan", o.toString(),
                "-o", p.toString());
        assertThat(tflm.exit()).as(tflm.err()).isZero();
        assertThat(tflm.out()).containsPattern("(?m)^arena +logical +at deploy +1310720 ");
        assertThat(TfliteReader.read(o).subgraphs().get(0).operators()).hasSize(164);
        Plan plan = PlanJson.read(p);
        assertThat(PlanValidator.validate(plan)).isInstanceOf(Verdict.Valid.class);
        assertThat(plan.spaces().get("arena").highWater()).isEqualTo(1_310_720);
        assertThat(plan.buffers().stream().filter(b -> b.sharesWith().isPresent()).count()).isEqualTo(37);
        // the offline plan's words are the plan's offsets: a pair's output at its input's offset
        Run again = Run.of("plan", o.toString(), "--tflm-kernels", "other", "--json");
        assertThat(again.exit()).as(again.err()).isZero();
        Run fast = Run.of("plan", model("ch_ppocr_mobile_v2.0_cls_infer.onnx"), "--input", "x=1x3x48x192",
                "--fast-space", "sram", "--in-place", "views");
        assertThat(fast.exit()).isEqualTo(2);
        assertThat(fast.err()).contains("--in-place views shares a buffer's bytes with its input's in one space");
    }

    @Test
    void anOutputThatDoesNotFitInTheInputItOverwritesIsInvalidInputNamingTheBuffer() throws Exception {
        Path w = Files.writeString(dir.resolve("w.json"), """
                { "buffers": [
                    { "name": "a", "size": 64, "space": "global" },
                    { "name": "b", "size": 65, "space": "global", "role": "output",
                      "overwrites": [ { "input": "a", "reason": "elementwise" } ] } ],
                  "operators": [ { "name": "relu", "reads": ["a"], "writes": ["b"] } ] }
                """);
        Run r = Run.of("plan", w.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("buffers[1].overwrites[0]: 'b' reserves 128 bytes, more than the 64 of 'a'; "
                + "an output written over an input fits in it");
    }

    @Test
    void theOptionsOnAWorkloadWithoutOperatorsOrWithABadValueAreInvalidInput() {
        Run steps = Run.of("plan", example("seed.json"), "--order", "best");
        assertThat(steps.exit()).isEqualTo(2);
        assertThat(steps.err()).contains("--order best: ", "lists no operators to order");
        Run bad = Run.of("plan", example("block.json"), "--in-place", "alias");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--in-place: 'alias' is not one of none, views, elementwise");
        Run defaults = Run.of("plan", example("seed.json"), "--order", "file", "--in-place", "none");
        assertThat(defaults.exit()).as(defaults.err()).isZero();
        assertThat(defaults.out()).isEqualTo(Run.of("plan", example("seed.json")).out());
    }
}
