package dev.berth.io.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.berth.io.onnx.ImportedModel;
import dev.berth.io.onnx.OnnxImport;
import dev.berth.plan.Planner;
import dev.berth.solve.SolverChoice;

import java.util.Optional;

/**
 * Fuzzes the ONNX import: protobuf decoding, shape inference with constant folding, and the
 * workload built from it, on {@code npu-ref}. Any bytes give an imported model or
 * {@code invalid-input}, never a protobuf exception, an arithmetic exception or an
 * out-of-memory error (a few bytes can claim a tensor of 2^62 elements); an imported model
 * plans (best fit, 1 s) or fails typed. Seeds (small models built with the protobuf classes)
 * and findings: {@code OnnxImportFuzzTestInputs/onnxFile/}.
 */
class OnnxImportFuzzTest {

    @FuzzTest(maxDuration = FuzzSettings.MAX_DURATION)
    void onnxFile(byte[] bytes) {
        Optional<ImportedModel> read = Outcomes.read(() -> OnnxImport.read(bytes, "fuzz.onnx", FuzzInputs.NPU_REF,
                OnnxImport.Options.of()));
        read.ifPresent(model -> Outcomes.typed(() -> Planner.plan(FuzzInputs.NPU_REF, model.workload(),
                new Planner.Options(SolverChoice.BEST_FIT, 1))));
    }
}
