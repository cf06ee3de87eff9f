package dev.berth.cli;

import dev.berth.artifact.Plan;
import dev.berth.failure.BerthException;
import dev.berth.io.MiniMallocCsv;
import dev.berth.target.Target;
import dev.berth.io.PlanJson;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * MiniMalloc CSV on the command line: a {@code .csv} workload is one local space
 * ({@link MiniMallocCsv#SPACE}) of {@code --capacity} bytes; {@code -o FILE.csv} writes the
 * input's rows with their offsets (MiniMalloc's output format), any other {@code -o} the plan
 * artifact.
 */
final class CsvWorkloads {
    private CsvWorkloads() {
    }

    static boolean isCsv(Path file) {
        Path name = file.getFileName();
        return name != null && name.toString().toLowerCase(Locale.ROOT).endsWith(".csv");
    }

    /** The target and workload of a CSV file; {@code --capacity} is required, {@code --input} refused. */
    static WorkloadSources.Loaded load(Path file, OptionalLong capacity, List<String> inputs) {
        if (capacity.isEmpty()) {
            throw BerthException.invalid("--capacity", file + ": a MiniMalloc CSV has one space and no target: give its "
                    + "capacity with --capacity SIZE (e.g. --capacity 1048576)");
        }
        if (!inputs.isEmpty()) {
            throw BerthException.invalid("--input", "--input applies to ONNX models only");
        }
        MiniMallocCsv.Document doc = MiniMallocCsv.read(file);
        Target target = MiniMallocCsv.target(capacity.getAsLong());
        return new WorkloadSources.Loaded(target, doc.workload(target), Optional.empty(), Optional.empty(),
                Optional.of(doc));
    }

    /** Refuses, before any planning, a CSV output for a workload that is not a CSV. */
    static void checkOutput(Path output, Path workload) {
        if (output != null && isCsv(output) && !isCsv(workload)) {
            throw BerthException.invalid("-o", output.toString(), "-o " + output + ": a CSV output holds the rows of a "
                    + "MiniMalloc CSV input with their offsets; for " + workload + " write the plan artifact (-o PLAN.json)");
        }
    }

    /** Refuses {@code --target} with a CSV workload, whose target comes from {@code --capacity}. */
    static void checkTarget(Path workload, boolean targetGiven) {
        if (targetGiven && isCsv(workload)) {
            throw BerthException.invalid("--target", "--target does not apply to a MiniMalloc CSV: its one space '"
                    + MiniMallocCsv.SPACE + "' has the capacity given by --capacity");
        }
    }

    /**
     * What {@code -o output} holds: the CSV rows read (a CSV output is refused for any other
     * input, {@link #checkOutput}) with their offsets for a .csv output, else the plan artifact.
     */
    static AtomicFiles.Content output(Path output, WorkloadSources.Loaded in, Plan plan) {
        if (isCsv(output)) {
            MiniMallocCsv.Document doc = in.csv().orElseThrow();
            return out -> MiniMallocCsv.write(doc, plan, out);
        }
        return out -> PlanJson.write(plan, out);
    }
}
