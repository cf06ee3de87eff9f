package dev.berth.cli;

import dev.berth.TestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code plan} tells a file by its content, the extension only a hint (contract §7, "What a file
 * is"); {@code check-deploy} needs {@code --provide} only for the logical spaces that need bytes.
 */
class InputKindCliTest {
    @TempDir
    Path dir;

    private Path copy(String relative, String name) throws IOException {
        Path to = dir.resolve(name);
        Files.copy(TestData.root().resolve(relative), to);
        return to;
    }

    /** The output with the first line (it names the workload, after the file) left out. */
    private static String afterFirstLine(String out) {
        return out.substring(out.indexOf('\n') + 1);
    }

    @Test
    void anOnnxModelNamedBinIsReadAsOnnx() throws IOException {
        Path bin = copy("testdata/models/hello_deepa.onnx", "model.bin");
        Run asBin = Run.of("plan", bin.toString());
        assertThat(asBin.exit()).as(asBin.err()).isZero();
        Run asOnnx = Run.of("plan", TestData.require("models/hello_deepa.onnx").toString());
        assertThat(asBin.out()).startsWith("plan model.bin on target npu-ref:").contains("\nonnx: 29 steps");
        assertThat(afterFirstLine(asBin.out())).isEqualTo(afterFirstLine(asOnnx.out()));
    }

    @Test
    void aTfliteModelWithNoExtensionIsPlannedOnTflmAndGetsItsOfflinePlan() throws IOException {
        Path model = copy("testdata/models/tflite/person_detect.tflite", "person_detect");
        Path planned = dir.resolve("planned.model");
        Run r = Run.of("plan", model.toString(), "--tflm-plan", planned.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("plan person_detect on target tflm:")
                .contains("wrote " + planned + " (OfflineMemoryAllocation: 89 offsets, 32 given");
        assertThat(Files.size(planned)).isPositive();
    }

    @Test
    void aCsvNamedTxtIsAMiniMallocCsv() throws IOException {
        Path txt = dir.resolve("x.txt");
        Files.writeString(txt, "id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\n");
        Run r = Run.of("plan", txt.toString(), "--capacity", "8", "-o", dir.resolve("x.out.csv").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("mem +local +8 +4 ");
        assertThat(Files.readString(dir.resolve("x.out.csv"))).startsWith("id,lower,upper,size,offset\n");
    }

    @Test
    void aJsonFileNamedOnnxIsInvalidInputNamingBothAndWritesNothing() throws IOException {
        Path p = copy("examples/seed.json", "seed.onnx");
        Path out = dir.resolve("plan.json");
        Run r = Run.of("plan", p.toString(), "-o", out.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("berth: invalid-input: " + p + ": the name says an ONNX model (.onnx) but the "
                + "content is a Berth workload (JSON: '{' or '[' first); Berth does not guess which is meant: give the "
                + "file a name that ends in .json to read it as a Berth workload\n");
        assertThat(out).doesNotExist();
        Run json = Run.of("plan", p.toString(), "--json");
        assertThat(json.exit()).isEqualTo(2);
        assertThat(json.out()).contains("\"category\": \"invalid-input\"", "\"path\": \"" + p + "\"");
    }

    @Test
    void aFileOfNoKindIsInvalidInputListingTheKinds() throws IOException {
        Path p = dir.resolve("notes.bin");
        Files.write(p, new byte[]{(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13});
        Run r = Run.of("plan", p.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("berth: invalid-input: " + p + ": Berth cannot tell what this file is: its "
                + "content is none of a Berth workload").contains("an ONNX model", "a TensorFlow Lite model",
                "a MiniMalloc CSV").endsWith("and its name ends in none of .json, .onnx, .tflite, .csv\n");
        // a missing file is the reader's to report, as before
        Run missing = Run.of("plan", dir.resolve("missing.bin").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("no such file");
    }

    @Test
    void checkDeployOfATflmPlanNeedsOnlyTheArena() throws IOException {
        Path plan = dir.resolve("p.json");
        Run p = Run.of("plan", TestData.require("models/tflite/person_detect.tflite").toString(), "-o", plan.toString());
        assertThat(p.exit()).as(p.err()).isZero();
        Run ok = Run.of("check-deploy", plan.toString(), "--provide", "arena=64KiB");
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out()).isEqualTo("""
                space arena: needs 55296 bytes (highWater 55296 + runtimeReserve 0), provided 65536, spare 10240
                space persistent: needs 0 bytes (highWater 0 + runtimeReserve 0), nothing to provide
                deployable
                """);
        Run json = Run.of("check-deploy", plan.toString(), "--provide", "arena=64KiB", "--json");
        assertThat(json.exit()).isZero();
        assertThat(json.out()).contains("\"persistent\": {", "\"needed\": 0,", "\"provided\": 0,");
        // persistent may still be given; the arena, which needs bytes, may not be left out
        assertThat(Run.of("check-deploy", plan.toString(), "--provide", "arena=64KiB", "--provide", "persistent=0")
                .out()).contains("space persistent: needs 0 bytes (highWater 0 + runtimeReserve 0), provided 0, spare 0");
        Run none = Run.of("check-deploy", plan.toString());
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).contains("logical space arena needs --provide arena=SIZE");
    }
}
