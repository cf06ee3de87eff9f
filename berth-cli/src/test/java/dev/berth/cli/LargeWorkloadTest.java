package dev.berth.cli;

import dev.berth.artifact.Plan;
import dev.berth.bench.WorkloadFiles;
import dev.berth.io.PlanJson;
import dev.berth.verify.PlanValidator;
import dev.berth.verify.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A regression guard, not a benchmark: the benchmarks' seeded workload of 100,000 buffers
 * ({@link WorkloadFiles}, 8 MB of JSON) goes through {@code berth plan FILE -o plan.json} as a user
 * runs it (streamed in, planned, verified, streamed out), and the artifact reads back to the same
 * bytes and a valid plan. The time limit is far above what it takes on a busy machine (seconds);
 * only a return of the whole-file trees and quadratic passes would reach it.
 */
class LargeWorkloadTest {
    private static final int BUFFERS = 100_000;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aHundredThousandBuffersPlanEndToEnd() throws IOException {
        Path workload = dir.resolve("synthetic.json");
        WorkloadFiles.write(workload, BUFFERS, WorkloadFiles.SEED, WorkloadFiles.PER_STEP);
        Path artifact = dir.resolve("plan.json");
        Run run = Run.of("plan", workload.toString(), "-o", artifact.toString(), "--quiet");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("plan synthetic-" + BUFFERS + "-seed" + WorkloadFiles.SEED)
                .contains("verified").doesNotContain("wrote"); // --quiet: no confirmation lines

        byte[] written = Files.readAllBytes(artifact);
        Plan back = PlanJson.read(artifact);
        // every buffer, and the instruction stream npu-ref's generation adds
        assertThat(back.buffers()).hasSize(BUFFERS + 1);
        assertThat(back.buffers().get(0).name()).isEqualTo("t0");
        assertThat(back.buffers().get(BUFFERS - 1).name()).isEqualTo("t" + (BUFFERS - 1));
        assertThat(PlanValidator.validate(back)).isInstanceOf(Verdict.Valid.class);
        assertThat(PlanJson.toBytes(back)).isEqualTo(written);
        long high = back.spaces().get("global").highWater();
        long peak = back.spaces().get("global").peakLive();
        assertThat(high).isGreaterThanOrEqualTo(peak).isPositive();
    }
}
