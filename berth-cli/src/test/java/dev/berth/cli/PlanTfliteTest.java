package dev.berth.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.berth.TestData;
import dev.berth.io.tflite.TfliteReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code berth plan MODEL.tflite} end to end, on the bundled tflm target. */
class PlanTfliteTest {
    @TempDir
    Path dir;

    private static String model(String name) {
        return TestData.require("models/tflite/" + name).toString();
    }

    @Test
    void personDetectPlansOnTflmByDefaultWithTflmsHead() {
        Run r = Run.of("plan", model("person_detect.tflite"));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("plan person_detect on target tflm: 89 reservations, verified",
                "32 tensors TFLM plans, in arena", "57 constant, in flash",
                "peak live (lower bound of any placement):  55296 B", "high-water (the head, this plan):          55296 B");
        assertThat(r.out()).containsPattern("arena +logical +at deploy +55296 +55296");
    }

    @Test
    void aCapacityMakesTheArenaFinite() {
        Run fits = Run.of("plan", model("person_detect.tflite"), "--capacity", "54KiB");
        assertThat(fits.exit()).as(fits.err()).isZero();
        assertThat(fits.out()).containsPattern("arena +local +55296 +55296").contains("spare 0 B");
        Run small = Run.of("plan", model("person_detect.tflite"), "--capacity", "50000");
        assertThat(small.exit()).isEqualTo(5);
        assertThat(small.err()).contains("capacity-exceeded", "space arena: capacity 50000",
                "need 55296 bytes but 50000 are available", "5296 bytes over");
    }

    @Test
    void aCapacityPastWhatTheArenasFormatAddressesIsRefusedAsTheFastCapacityIs() {
        Run big = Run.of("plan", model("person_detect.tflite"), "--capacity", "4GiB");
        assertThat(big.exit()).isEqualTo(2);
        assertThat(big.err()).contains("invalid-input", "--capacity 4294967296 is more than space arena's format");
        Run fast = Run.of("plan", model("person_detect.tflite"), "--fast-space", "sram", "--fast-capacity", "4GiB");
        assertThat(fast.exit()).isEqualTo(2);
        assertThat(fast.err()).contains("--fast-capacity 4294967296 is more than space sram's format");
    }

    @Test
    void aMinusOneInAShapeSignatureIsPlannedAtTheStoredShapeAndAnotherShapeIsRefused() {
        String note = "  input serving_default_dense_input:0 (shape signature [-1, 1]) planned at the shape the file "
                + "stores, 1x1, as TFLM plans it (--input serving_default_dense_input:0=1x1 states it; another shape "
                + "is refused)\n";
        Run without = Run.of("plan", model("hello_world_int8.tflite"));
        assertThat(without.exit()).as(without.err()).isZero();
        assertThat(without.out()).contains(note, "high-water (the head, this plan):          32 B");
        Run with = Run.of("plan", model("hello_world_int8.tflite"), "--input", "serving_default_dense_input:0=1x1");
        assertThat(with.exit()).as(with.err()).isZero();
        assertThat(with.out()).doesNotContain("planned at the shape the file stores")
                .isEqualTo(without.out().replace(note, ""));
        Run fast = Run.of("plan", model("hello_world_int8.tflite"), "--fast-space", "sram", "--fast-capacity", "1KiB");
        assertThat(fast.exit()).as(fast.err()).isZero();
        assertThat(fast.out()).contains(note);
        for (String wrong : new String[] {"8x1", "1x2", "1", "1x1x1"}) {
            Run other = Run.of("plan", model("hello_world_int8.tflite"), "--input", "serving_default_dense_input:0=" + wrong);
            assertThat(other.exit()).as(wrong).isEqualTo(2);
            assertThat(other.err()).as(wrong).contains("invalid-input", "--input serving_default_dense_input:0: ");
        }
        Run other = Run.of("plan", model("hello_world_int8.tflite"), "--input", "serving_default_dense_input:0=8x1");
        assertThat(other.err()).contains("Berth does not infer TFLite shapes");
        Run models = Run.of("plan", model("person_detect.tflite"));
        assertThat(models.out()).doesNotContain("planned at the shape the file stores");
    }

    @Test
    void variableTensorsGoToThePersistentSpaceLiveOverEveryStep() throws Exception {
        Path out = dir.resolve("kws.json");
        Run r = Run.of("plan", model("keyword_scrambled_8bit.tflite"), "-o", out.toString(), "--json",
                "--tflm-kernels", "other");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode plan = new ObjectMapper().readTree(out.toFile());
        int variables = 0;
        for (JsonNode b : plan.get("buffers")) {
            if (b.get("space").asText().equals("persistent")) {
                variables++;
                assertThat(b.get("live").get(0).asInt()).isZero();
                assertThat(b.get("live").get(1).asInt()).isEqualTo(15);
            }
        }
        assertThat(variables).isEqualTo(7);
        assertThat(plan.get("spaces").get("arena").get("highWater").asLong()).isEqualTo(288);
        assertThat(plan.get("spaces").get("persistent").get("highWater").asLong()).isEqualTo(4 * 512 + 3 * 1024);
    }

    @Test
    void anotherTargetCanBeChosen() {
        Run r = Run.of("plan", model("micro_speech_quantized.tflite"), "--target", "npu-ref");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("on target npu-ref", "tensors TFLM plans, in global", "constant, in weights");
    }

    @Test
    void aCorruptFileIsInvalidInput() throws Exception {
        Path bad = dir.resolve("bad.tflite");
        Files.write(bad, Arrays.copyOf(Files.readAllBytes(
                Path.of(model("person_detect.tflite"))), 1000));
        Run r = Run.of("plan", bad.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("invalid-input", "not a valid TensorFlow Lite model");
    }

    @Test
    void tflmPlanWritesACopyWithTheOfflinePlanAndNeverTheInput() throws Exception {
        Path in = dir.resolve("micro_speech.tflite");
        Files.copy(Path.of(model("micro_speech_quantized.tflite")), in);
        byte[] before = Files.readAllBytes(in);
        Path out = dir.resolve("planned.tflite");
        Run r = Run.of("plan", in.toString(), "--tflm-plan", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("wrote " + out + " (OfflineMemoryAllocation: 10 offsets, 5 given, -1 for the rest)");
        assertThat(Files.readAllBytes(in)).isEqualTo(before);
        // the written model plans again, and carries the plan TFLM will use
        Run again = Run.of("plan", out.toString());
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(again.out()).contains("the file already holds an OfflineMemoryAllocation plan",
                "offsets give a head of 5968 B",
                "that plan places no two tensors TFLM's lifetimes say are live together at common bytes");

        Run self = Run.of("plan", in.toString(), "--tflm-plan", in.toString());
        assertThat(self.exit()).isEqualTo(2);
        assertThat(self.err()).contains("is also an input; refusing to overwrite it");
        assertThat(Files.readAllBytes(in)).isEqualTo(before);

        Run notTflite = Run.of("plan", TestData.require("models/hello_deepa.onnx").toString(), "--tflm-plan",
                dir.resolve("x.tflite").toString());
        assertThat(notTflite.exit()).isEqualTo(2);
        assertThat(notTflite.err()).contains("is not a .tflite model");
        assertThat(dir.resolve("x.tflite")).doesNotExist();
    }

    /**
     * The written model is the input rebuilt (person_detect: 300,568 bytes in, at most 303,500 out), and
     * planning it again writes the same bytes, with and without the kernels' scratch buffers.
     */
    @Test
    void planningAPlannedModelWritesTheSameBytes() throws Exception {
        for (String name : new String[] {"person_detect", "keyword_scrambled_8bit"}) {
            List<String> scratch = name.equals("person_detect") ? List.of()
                    : List.of("--tflm-scratch", scratch(name));
            Path once = dir.resolve(name + ".once.tflite");
            Path twice = dir.resolve(name + ".twice.tflite");
            List<String> first = new ArrayList<>(List.of("plan", model(name + ".tflite")));
            first.addAll(scratch);
            first.addAll(List.of("--tflm-plan", once.toString()));
            Run r = Run.of(first.toArray(String[]::new));
            assertThat(r.exit()).as(r.err()).isZero();
            List<String> second = new ArrayList<>(List.of("plan", once.toString()));
            second.addAll(scratch);
            second.addAll(List.of("--tflm-plan", twice.toString()));
            Run again = Run.of(second.toArray(String[]::new));
            assertThat(again.exit()).as(again.err()).isZero();
            assertThat(Files.readAllBytes(twice)).as(name).isEqualTo(Files.readAllBytes(once));
        }
        assertThat(Files.size(dir.resolve("person_detect.once.tflite"))).isLessThanOrEqualTo(303_500);
    }

    /**
     * person_detect_vela holds Vela's plan (the Ethos-U operator's tensors overlapping on purpose, head
     * 74,464): Berth keeps it, says so with both heads, and writes it; --replace-plan writes Berth's own
     * (158,160), and applies to .tflite models only.
     */
    @Test
    void aFilesPlanOfACustomOperatorIsKeptUnlessReplaced() throws Exception {
        Path out = dir.resolve("vela.tflite");
        Run r = Run.of("plan", model("person_detect_vela.tflite"), "--tflm-plan", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("arena +logical +at deploy +74464 +74464")
                .contains("its offsets give a head of 74464 B (72.72 KiB)\n",
                        "kept at the file's offsets: 4 tensors of custom operators (CUSTOM(ethos-u))",
                        "but for kept tensors (a custom operator's, which Berth does not judge)",
                        "offline plan written: Berth's (head 74464 B (72.72 KiB); the file's: 74464 B (72.72 KiB), no "
                                + "smaller)")
                .doesNotContain("overlaps tensors");
        assertThat(TfliteReader.read(out).offlinePlan().orElseThrow()).as("Vela's words")
                .containsExactly(TfliteReader.read(Path.of(model("person_detect_vela.tflite")))
                        .offlinePlan().orElseThrow());
        Run json = Run.of("plan", model("person_detect_vela.tflite"), "--json");
        JsonNode tflm = new ObjectMapper().readTree(json.out()).get("tflm");
        assertThat(tflm.get("head").asLong()).isEqualTo(74464);
        assertThat(tflm.get("keptTensors").asInt()).isEqualTo(4);
        assertThat(tflm.get("offlinePlan").asText()).isEqualTo("berth");

        Run replaced = Run.of("plan", model("person_detect_vela.tflite"), "--replace-plan");
        assertThat(replaced.exit()).as(replaced.err()).isZero();
        assertThat(replaced.out()).containsPattern("arena +logical +at deploy +158160 +158160")
                .contains("Berth's plan above ignores them (--replace-plan)", "that plan overlaps tensors")
                .doesNotContain("kept at the file's offsets", "offline plan written");
        Run notTflite = Run.of("plan", TestData.root().resolve("examples/seed.json").toString(), "--replace-plan");
        assertThat(notTflite.exit()).isEqualTo(2);
        assertThat(notTflite.err()).contains("invalid-input", "--replace-plan replaces a TFLite model's offline plan");
    }

    private static String scratch(String model) {
        return TestData.require("tflm-scratch/" + model + ".json").toString();
    }

    /**
     * keyword_scrambled_8bit with its kernels' scratch buffers: the arena is TFLM's head as TFLM will
     * lay it out (672 B, TFLM's own, the lower bound), the offline plan of the tensors alone would end at
     * 800 B, and the summary says what TFLM adds at run time.
     */
    @Test
    void scratchBuffersArePlannedAndTflmsFinalHeadPredicted() throws Exception {
        Path plan = dir.resolve("kws.json");
        Path html = dir.resolve("kws.html");
        Path planned = dir.resolve("kws.tflite");
        Run r = Run.of("plan", model("keyword_scrambled_8bit.tflite"), "--tflm-scratch", scratch("keyword_scrambled_8bit"),
                "-o", plan.toString(), "--report", html.toString(), "--tflm-plan", planned.toString(), "--show",
                "--width", "80");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("arena +logical +at deploy +672 +672 +672 .* optimal \\(lower bound\\)")
                .contains("with the kernels' 14 scratch buffers (--tflm-scratch, 2816 B",
                        "lower bound (tensors and scratch buffers): 672 B",
                        "predicted TFLM head (its greedy for them): 672 B, optimal (lower bound)",
                        "TFLM's own head (its greedy, all online):  672 B",
                        "TFLM's own head of the tensors alone:      288 B",
                        "Berth's plan of the tensors alone: tensors in 288 B, head 800 B",
                        "the arena to give TFLM = this head + TFLM's persistent tail",
                        "space arena (logical): 30 reservations, high-water 672 B",
                        "wrote " + planned + " (OfflineMemoryAllocation: 54 offsets, 16 given, -1 for the rest)")
                .doesNotContain("give them with --tflm-scratch");
        JsonNode artifact = new ObjectMapper().readTree(plan.toFile());
        assertThat(artifact.get("spaces").get("arena").get("highWater").asLong()).isEqualTo(672);
        int scratchBuffers = 0;
        for (JsonNode b : artifact.get("buffers")) {
            if (b.get("name").asText().startsWith("scratch")) {
                scratchBuffers++;
                assertThat(b.get("space").asText()).isEqualTo("arena");
            }
        }
        assertThat(scratchBuffers).isEqualTo(14);
        assertThat(Files.readString(html)).contains("scratch13");
        // the written model's offline plan is the plan's tensors, and the plan reads back as written
        Run report = Run.of("report", plan.toString(), "-o", dir.resolve("again.html").toString());
        assertThat(report.exit()).as(report.err()).isZero();
        Run json = Run.of("plan", model("keyword_scrambled_8bit.tflite"), "--tflm-scratch", scratch("keyword_scrambled_8bit"),
                "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        JsonNode tflm = new ObjectMapper().readTree(json.out()).get("tflm");
        assertThat(tflm.get("head").asLong()).isEqualTo(672);
        assertThat(tflm.get("lowerBound").asLong()).isEqualTo(672);
        assertThat(tflm.get("tflmHead").asLong()).isEqualTo(672);
        assertThat(tflm.get("tflmTensorHead").asLong()).isEqualTo(288);
        assertThat(tflm.get("candidates").get(1).get("source").asText()).isEqualTo("berth-tensors-alone");
        assertThat(tflm.get("candidates").get(1).get("head").asLong()).isEqualTo(800);
    }

    @Test
    void withAnotherKernelLibraryTheSummarySaysTflmAddsScratchBuffersAtRunTime() {
        Run r = Run.of("plan", model("trained_lstm_int8.tflite"), "--show", "--width", "80", "--tflm-kernels", "other");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("TFLM's own head (its greedy planner):      1344 B",
                "the arena to give TFLM = this head + TFLM's persistent tail",
                "TFLM also adds the kernels' scratch buffers to the head", "give them with --tflm-scratch FILE",
                "space arena (logical): 5 reservations");
    }

    /**
     * Without --tflm-scratch the reference kernels' requests are predicted: the head printed is TFLM's
     * real head (keyword_scrambled_8bit 672, trained_lstm_int8 1536, as TFLM ran them), and the plan is
     * the one the scratch file gives; a kernel Berth does not know is said.
     */
    @Test
    void withoutAScratchFileTheReferenceKernelsRequestsArePredicted() throws Exception {
        for (String name : new String[] {"keyword_scrambled_8bit", "trained_lstm_int8"}) {
            Run predicted = Run.of("plan", model(name + ".tflite"), "--json");
            Run file = Run.of("plan", model(name + ".tflite"), "--json", "--tflm-scratch", scratch(name));
            assertThat(predicted.exit()).as(predicted.err()).isZero();
            JsonNode p = new ObjectMapper().readTree(predicted.out());
            JsonNode f = new ObjectMapper().readTree(file.out());
            assertThat(p.get("tflm").get("head").asLong()).as(name).isEqualTo(name.startsWith("keyword") ? 672 : 1536)
                    .isEqualTo(f.get("tflm").get("head").asLong());
            assertThat(p.get("tflm").get("scratchNotPredicted")).isEmpty();
            assertThat(p.get("spaces")).isEqualTo(f.get("spaces"));
        }
        Run lstm = Run.of("plan", model("trained_lstm_int8.tflite"));
        assertThat(lstm.out()).contains("with the kernels' 4 scratch buffers (predicted for TFLM's reference kernels, "
                + "160 B)", "predicted TFLM head (its greedy for them): 1536 B").doesNotContain("give them with");
        Run none = Run.of("plan", model("person_detect.tflite"));
        assertThat(none.out()).contains("TFLM's reference kernels request no scratch buffers for these operators");
        Run vela = Run.of("plan", model("person_detect_vela.tflite"));
        assertThat(vela.out()).contains("scratch requests not predicted (Berth does not know these kernels): "
                + "CUSTOM(ethos-u) (a custom operator); at run time their scratch buffers can make the head larger: "
                + "give them with --tflm-scratch FILE");
        Run bad = Run.of("plan", model("person_detect.tflite"), "--tflm-kernels", "cmsis-nn");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("invalid-input", "--tflm-kernels: reference");
        Run both = Run.of("plan", model("trained_lstm_int8.tflite"), "--tflm-kernels", "reference", "--tflm-scratch",
                scratch("trained_lstm_int8"));
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("with --tflm-scratch the file gives them");
        Run onnx = Run.of("plan", TestData.require("models/hello_deepa.onnx").toString(), "--tflm-kernels", "other");
        assertThat(onnx.exit()).isEqualTo(2);
        assertThat(onnx.err()).contains("is not a .tflite model");
    }

    @Test
    void aBadScratchFileIsInvalidInputNamingTheEntry() throws Exception {
        Path bad = dir.resolve("scratch.json");
        Files.writeString(bad, "{\"scratch\": [{\"size\": 48, \"first\": 1, \"last\": 1}, "
                + "{\"size\": 48, \"first\": 3, \"last\": 7}]}");
        Run late = Run.of("plan", model("trained_lstm_int8.tflite"), "--tflm-scratch", bad.toString());
        assertThat(late.exit()).isEqualTo(2);
        assertThat(late.err()).contains("invalid-input", "scratch[1].last is step 7", "0..4");
        Files.writeString(bad, "{\"scratch\": [{\"size\": -48, \"first\": 1, \"last\": 1}]}");
        Run negative = Run.of("plan", model("trained_lstm_int8.tflite"), "--tflm-scratch", bad.toString());
        assertThat(negative.exit()).isEqualTo(2);
        assertThat(negative.err()).contains("invalid-input", "scratch[0].size", "negative");
        Run notTflite = Run.of("plan", TestData.require("models/hello_deepa.onnx").toString(), "--tflm-scratch",
                bad.toString());
        assertThat(notTflite.exit()).isEqualTo(2);
        assertThat(notTflite.err()).contains("--tflm-scratch", "is not a .tflite model");
        Run overwrite = Run.of("plan", model("trained_lstm_int8.tflite"), "--tflm-scratch", bad.toString(), "-o",
                bad.toString());
        assertThat(overwrite.exit()).isEqualTo(2);
        assertThat(overwrite.err()).contains("refusing to overwrite it");
    }
}
