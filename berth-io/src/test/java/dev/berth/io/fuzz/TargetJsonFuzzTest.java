package dev.berth.io.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.berth.io.PlanJson;
import dev.berth.io.TargetJson;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the target reader (contract §4). A target that reads is written back in the form of
 * §4 and must read back equal, and a small workload (one buffer per space) must plan on it or
 * fail with a typed failure. Seeds and findings: {@code TargetJsonFuzzTestInputs/targetFile/}.
 */
class TargetJsonFuzzTest {

    @FuzzTest(maxDuration = FuzzSettings.MAX_DURATION)
    void targetFile(byte[] bytes) {
        Optional<Target> read = Outcomes.read(() -> TargetJson.read(FuzzInputs.json(bytes, "fuzz.json"), "fuzz"));
        read.ifPresent(target -> {
            Target again = Outcomes.read(() -> TargetJson.read(FuzzInputs.json(written(target), "again.json"), "again"))
                    .orElseThrow(() -> new AssertionError("a target that read does not read back once written"));
            assertThat(again).isEqualTo(target);
            List<BufferSpec> buffers = new ArrayList<>();
            for (Space space : target.spaces().values()) {
                buffers.add(new BufferSpec("b." + space.name(), 100, space, 1, new Lifetime(0, 1), Optional.empty()));
            }
            Outcomes.typed(() -> Planner.plan(target, new Workload("w", buffers, List.of()),
                    new Planner.Options(SolverChoice.BEST_FIT, 1)));
        });
    }

    private static byte[] written(Target target) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = PlanJson.generator(out)) {
            TargetJson.write(g, target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
