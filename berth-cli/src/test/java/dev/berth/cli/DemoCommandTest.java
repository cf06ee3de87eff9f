package dev.berth.cli;

import dev.berth.TestData;
import dev.berth.artifact.Plan;
import dev.berth.io.PlanJson;
import dev.berth.verify.PlanValidator;
import dev.berth.workload.Origin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code berth demo} plans the bundled model and writes a plan that reads back. */
class DemoCommandTest {
    @TempDir
    Path dir;

    @Test
    void writesAPlanThatReadsBackAndValidates() throws IOException {
        Path out = dir.resolve("berth-demo");
        Run r = Run.of("demo", "--dir", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Path planFile = out.resolve("plan.json");
        assertThat(planFile).isRegularFile();
        Plan plan = PlanJson.read(planFile);
        assertThat(PlanValidator.validate(plan).valid()).isTrue();
        assertThat(plan.workload()).isEqualTo("ch_ppocr_mobile_v2.0_cls_infer");
        assertThat(plan.target().name()).isEqualTo("npu-ref");
        // 220 node outputs + the graph input in global, 250 Constant weights; one Reshape shares its input
        assertThat(plan.buffers().stream().filter(b -> b.space().equals("global"))
                .filter(b -> b.origin() == Origin.TENSOR).count()).isEqualTo(221);
        assertThat(plan.buffers().stream().filter(b -> b.space().equals("weights")).count()).isEqualTo(250);
        // the activations' peak (onnxruntime's max-live, 485,376 B) plus npu-ref's instruction stream, live
        // throughout: 16 bytes x 471 steps = 7,536, reserved 7,552 at alignment 64
        assertThat(plan.spaces().get("global").generationOverhead()).isEqualTo(7_552);
        assertThat(plan.spaces().get("global").peakLive()).isEqualTo(485_376 + 7_552);
        assertThat(r.out()).contains("naive total", "peak live", "high-water", "wrote " + planFile);
        Path report = out.resolve("plan.html");
        assertThat(report).isRegularFile();
        assertThat(r.out()).contains("wrote " + report);
        assertThat(Files.readString(report)).contains("<svg").contains("conv2d_53.tmp_0").doesNotContain("http://");
    }

    @Test
    void theBundledModelIsTheSharedOneWithItsLicense() throws Exception {
        byte[] model;
        try (InputStream in = DemoCommand.class.getResourceAsStream(DemoCommand.RESOURCE)) {
            model = in.readAllBytes();
        }
        String license;
        try (InputStream in = DemoCommand.class.getResourceAsStream(DemoCommand.LICENSE)) {
            license = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(model));
        assertThat(license).contains("SHA-256:      " + sha, "MIT License", "Apache License", "Version 2.0");
        assertThat(sha).isEqualTo("491843a3c65de46295864c6815e41127eaa812c4dac1e19c6850ec49da9d3640");
        Path copy = TestData.require("models/" + DemoCommand.MODEL);
        assertThat(Files.readAllBytes(copy)).isEqualTo(model);
    }

    @Test
    void rerunningReplacesThePlan() throws Exception {
        Path out = dir.resolve("again");
        assertThat(Run.of("demo", "--dir", out.toString()).exit()).isZero();
        byte[] first = Files.readAllBytes(out.resolve("plan.json"));
        assertThat(Run.of("demo", "--dir", out.toString()).exit()).isZero();
        assertThat(Files.readAllBytes(out.resolve("plan.json"))).isEqualTo(first);
        try (var files = Files.list(out)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("plan.json", "plan.html");
        }
    }
}
