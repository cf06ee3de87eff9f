package dev.berth.io.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.berth.TestData;
import dev.berth.io.TargetJson;
import dev.berth.io.TflmScratchJson;
import dev.berth.io.tflite.ImportedTflite;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TflmHeadPlan;
import dev.berth.io.tflite.TflmScratch;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;

import java.util.List;
import java.util.Optional;

/**
 * Fuzzes the {@code --tflm-scratch} reader (contract §5.1). Any bytes give a list of scratch buffers
 * or {@code invalid-input}; a list that reads is imported with trained_lstm_int8 (steps past the
 * model's are {@code invalid-input}), planned (best fit, 1 s) or failed typed, and TFLM's head is
 * predicted, never above TFLM's own ({@link TfliteImportFuzzTest#checkHead}). Seeds (the files of testdata/tflm-scratch) and findings:
 * {@code TflmScratchJsonFuzzTestInputs/scratchFile/}.
 */
class TflmScratchJsonFuzzTest {
    private static final Planner.Options OPTIONS = new Planner.Options(SolverChoice.BEST_FIT, 1);

    @FuzzTest(maxDuration = FuzzSettings.MAX_DURATION)
    void scratchFile(byte[] bytes) {
        Optional<List<TflmScratch>> read = Outcomes.read(() -> TflmScratchJson.read(FuzzInputs.json(bytes, "fuzz.json"),
                "fuzz.json"));
        read.flatMap(scratch -> Outcomes.read(() -> TfliteImport.read(TestData.require(
                "models/tflite/trained_lstm_int8.tflite"), TargetJson.load("tflm"),
                TfliteImport.Options.of().withScratch(scratch)))).ifPresent(m -> predict(m));
    }

    private static void predict(ImportedTflite m) {
        Optional<PlanResult> r = Outcomes.typed(() -> Planner.plan(m.target(), m.workload(), OPTIONS));
        r.flatMap(p -> Outcomes.typed(() -> TflmHeadPlan.choose(m, p, OPTIONS))).ifPresent(TfliteImportFuzzTest::checkHead);
    }
}
