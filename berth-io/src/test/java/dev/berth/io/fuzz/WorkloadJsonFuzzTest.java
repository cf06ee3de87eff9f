package dev.berth.io.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.berth.artifact.Plan;
import dev.berth.io.PlanJson;
import dev.berth.io.WorkloadJson;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.workload.Workload;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fuzzes the workload reader (contract §5) and the planner behind it. A workload that reads is
 * planned on {@code npu-ref} (greedy or best fit, 1 s) and must give a validated plan or a
 * typed failure, never anything else: huge sizes, alignments and live ranges included. A plan
 * must survive the artifact round trip byte for byte. Seeds and findings:
 * {@code WorkloadJsonFuzzTestInputs/workloadFile/}.
 */
class WorkloadJsonFuzzTest {

    @FuzzTest(maxDuration = FuzzSettings.MAX_DURATION)
    void workloadFile(byte[] bytes) {
        Optional<Workload> read = Outcomes.read(() -> WorkloadJson.read(FuzzInputs.json(bytes, "fuzz.json"), "fuzz", FuzzInputs.NPU_REF));
        read.ifPresent(workload -> {
            SolverChoice solver = bytes.length % 2 == 0 ? SolverChoice.BEST_FIT : SolverChoice.GREEDY;
            Optional<PlanResult> planned = Outcomes.typed(() -> Planner.plan(FuzzInputs.NPU_REF, workload,
                    new Planner.Options(solver, 1)));
            planned.ifPresent(result -> {
                byte[] artifact = PlanJson.toBytes(result.plan());
                Plan back = Outcomes.read(() -> PlanJson.read(FuzzInputs.json(artifact, "plan.json")))
                        .orElseThrow(() -> new AssertionError("Berth cannot read the artifact it wrote"));
                assertThat(PlanJson.toBytes(back)).isEqualTo(artifact);
            });
        });
    }
}
