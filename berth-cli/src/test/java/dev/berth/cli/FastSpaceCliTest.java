package dev.berth.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.TestData;
import dev.berth.io.PlanJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code berth plan MODEL --fast-space SPACE [--fast-capacity SIZE]} end to end (contract §5.2, §7). */
class FastSpaceCliTest {
    @TempDir
    Path dir;

    private static String model(String name) {
        return TestData.require("models/" + name).toString();
    }

    @Test
    void theClsModelPutsTheActivationsThatPayMostIntoSramAndPrintsBothBaselinesAndTheBound() throws Exception {
        Path out = dir.resolve("plan.json");
        Run r = Run.of("plan", model("ch_ppocr_mobile_v2.0_cls_infer.onnx"), "--input", "x=1x3x48x192",
                "--fast-space", "sram", "-o", out.toString(), "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode a = new ObjectMapper().readTree(r.out()).get("assignment");
        long cost = a.get("cost").asLong();
        assertThat(a.get("lowerBound").asLong()).isLessThanOrEqualTo(cost).isGreaterThanOrEqualTo(a.get("pinnedCost").asLong());
        assertThat(cost).isLessThanOrEqualTo(a.get("baselines").get("first-fit").asLong())
                .isLessThanOrEqualTo(a.get("baselines").get("fastest-bank-first").asLong());
        // the plan written has every activation where the choice put it, in sram within its capacity
        var plan = PlanJson.read(out);
        Set<String> inSram = new HashSet<>();
        for (JsonNode c : a.get("choices")) {
            assertThat(plan.buffer(c.get("buffer").asText()).orElseThrow().space()).isEqualTo(c.get("space").asText());
            if (c.get("space").asText().equals("sram")) {
                inSram.add(c.get("buffer").asText());
            } else {
                assertThat(c.get("why").get("space").asText()).isEqualTo("sram");
                assertThat(c.get("why").get("holders")).isNotEmpty();
            }
        }
        assertThat(inSram).hasSizeGreaterThan(100);
        assertThat(plan.spaces().get("sram").highWater()).isLessThanOrEqualTo(256 * 1024);
        // the artifact (version 3) holds the same assignment as --json: cost, bound, proof, every why
        assertThat(plan.version()).isEqualTo(3);
        JsonNode inFile = new ObjectMapper().readTree(out.toFile()).get("assignment");
        assertThat(inFile).isEqualTo(a);
        assertThat(plan.assignment().orElseThrow().cost()).isEqualTo(cost);
        // and the report made from the file alone shows the choices and the spaces side by side
        Path html = dir.resolve("from-file.html");
        Run report = Run.of("report", out.toString(), "-o", html.toString());
        assertThat(report.exit()).as(report.err()).isZero();
        assertThat(Files.readString(html)).contains("<div class=\"side-by-side\">", "Spaces chosen",
                "data-space=\"sram\"", "data-space=\"global\"");
        Run deploy = Run.of("check-deploy", out.toString(), "--provide", "global=1GiB");
        assertThat(deploy.exit()).as(deploy.err()).isZero();
    }

    @Test
    void theTableShowsTheCostAgainstBothPoliciesAndShowSaysWhy() {
        Run r = Run.of("plan", model("ch_ppocr_mobile_v2.0_cls_infer.onnx"), "--input", "x=1x3x48x192",
                "--fast-space", "sram", "--fast-capacity", "128KiB", "--show", "--width", "60");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("spaces chosen for", "first-fit (TVM USMP)",
                "fastest-bank-first (ExecuTorch banked_greedy)", "lower bound", "berth's choice:",
                "buffers not in their first choice:", "full");
    }

    @Test
    void aTfliteModelOnTflmGetsAnSramOfTheCapacityGiven() throws Exception {
        Path html = dir.resolve("r.html");
        Run r = Run.of("plan", model("tflite/person_detect.tflite"), "--fast-space", "sram", "--fast-capacity", "16KiB",
                "--report", html.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("sram", "first-fit (TVM USMP)");
        String page = Files.readString(html);
        assertThat(page).contains("<div class=\"side-by-side\">", "Spaces chosen", "data-space=\"sram\"",
                "data-space=\"arena\"");
    }

    @Test
    void misusesAreInvalidInput() {
        Run noSpace = Run.of("plan", model("tflite/person_detect.tflite"), "--fast-space", "sram");
        assertThat(noSpace.exit()).isEqualTo(2);
        assertThat(noSpace.err()).contains("--fast-capacity", "has no space 'sram'");
        Run own = Run.of("plan", model("hello_deepa.onnx"), "--fast-space", "global");
        assertThat(own.exit()).isEqualTo(2);
        assertThat(own.err()).contains("activations' own space");
        Run notLocal = Run.of("plan", model("hello_deepa.onnx"), "--fast-space", "weights");
        assertThat(notLocal.exit()).isEqualTo(2);
        assertThat(notLocal.err()).contains("external");
        Run alone = Run.of("plan", model("hello_deepa.onnx"), "--fast-capacity", "4KiB");
        assertThat(alone.exit()).isEqualTo(2);
        assertThat(alone.err()).contains("--fast-space");
        Run past = Run.of("plan", model("hello_deepa.onnx"), "--fast-space", "sram", "--fast-capacity", "2MiB");
        assertThat(past.exit()).isEqualTo(2);
        assertThat(past.err()).contains("sram20");
        Run tflm = Run.of("plan", model("tflite/person_detect.tflite"), "--fast-space", "sram", "--fast-capacity", "16KiB",
                "--tflm-plan", dir.resolve("out.tflite").toString());
        assertThat(tflm.exit()).isEqualTo(2);
        assertThat(tflm.err()).contains("--tflm-plan", "one arena");
        assertThat(dir.resolve("out.tflite")).doesNotExist();
        Run json = Run.of("plan", TestData.root().resolve("examples/seed.json").toString(), "--fast-space", "sram");
        assertThat(json.exit()).isEqualTo(2);
        assertThat(json.err()).contains("ONNX and TFLite models only");
    }
}
