package dev.berth.cli;

import dev.berth.failure.BerthException;
import dev.berth.io.WorkloadJson;
import dev.berth.target.Target;
import dev.berth.workload.Workload;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * Turns the {@code WORKLOAD} argument of {@code plan} into a target and a workload, by file
 * kind: a Berth workload (.json), a MiniMalloc CSV (.csv, one space, {@code --capacity}), an
 * ONNX model (.onnx, {@code --input NAME=DIMS}).
 */
final class WorkloadSources {
    /** What {@code plan} plans: the target (possibly derived from the input) and the workload. */
    record Loaded(Target target, Workload workload) {
    }

    private WorkloadSources() {
    }

    static Loaded load(Path file, Target target, OptionalLong capacity, List<String> inputs) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        if (name.endsWith(".csv")) {
            return CsvWorkloads.load(file, capacity, inputs);
        }
        if (name.endsWith(".onnx")) {
            throw BerthException.invalid("WORKLOAD", file.toString(), file + ": ONNX input is not available in this build");
        }
        if (capacity.isPresent()) {
            throw BerthException.invalid("--capacity", "--capacity applies to MiniMalloc CSV input only; a JSON workload "
                    + "takes capacities from its target");
        }
        if (!inputs.isEmpty()) {
            throw BerthException.invalid("--input", "--input applies to ONNX models only");
        }
        return new Loaded(target, WorkloadJson.read(file));
    }
}
