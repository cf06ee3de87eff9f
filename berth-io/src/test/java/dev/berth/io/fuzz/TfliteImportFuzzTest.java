package dev.berth.io.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.berth.io.TargetJson;
import dev.berth.io.tflite.ImportedTflite;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TflmOfflinePlan;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;
import dev.berth.target.Target;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * Fuzzes the TFLite import: the verifier, the generated FlatBuffers classes over what it let
 * through, TFLM's view and the workload, on {@code tflm}. Any bytes give an imported model or
 * {@code invalid-input}; an imported model plans (best fit, 1 s) or fails typed, and its offline
 * plan can be written into a copy of the bytes, which reads back. Seeds (three small TFLM models
 * of testdata and a WHILE model built with the schema's builders) and findings:
 * {@code TfliteImportFuzzTestInputs/tfliteFile/}.
 */
class TfliteImportFuzzTest {
    private static final Target TFLM = TargetJson.load("tflm");

    @FuzzTest(maxDuration = FuzzSettings.MAX_DURATION)
    void tfliteFile(byte[] bytes) {
        Optional<ImportedTflite> read = Outcomes.read(() -> TfliteImport.read(ByteBuffer.wrap(bytes), "fuzz.tflite", TFLM,
                TfliteImport.Options.of()));
        read.ifPresent(m -> Outcomes.typed(() -> Planner.plan(m.target(), m.workload(),
                new Planner.Options(SolverChoice.BEST_FIT, 1))).ifPresent(r -> Outcomes.typed(() ->
                TflmOfflinePlan.write(ByteBuffer.wrap(bytes), "fuzz.tflite", m.model(),
                        TflmOfflinePlan.offsets(m, r.plan())))));
    }
}
