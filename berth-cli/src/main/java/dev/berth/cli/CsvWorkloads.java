package dev.berth.cli;

import dev.berth.artifact.Plan;
import dev.berth.failure.BerthException;
import dev.berth.io.InputKind;
import dev.berth.io.MiniMallocCsv;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.io.PlanJson;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * MiniMalloc CSV on the command line: a CSV workload is one space ({@link MiniMallocCsv#SPACE}),
 * local of {@code --capacity} bytes, or logical without it; {@code -o FILE.csv} writes the
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

    /**
     * The target and workload of a CSV file: its one space local with {@code --capacity}, or
     * logical without it (the plan minimises its height, {@link #LOGICAL_NOTE}); {@code --input} refused.
     */
    static WorkloadSources.Loaded load(Path file, OptionalLong capacity, List<String> inputs) {
        if (!inputs.isEmpty()) {
            throw BerthException.invalid("--input", "--input applies to ONNX models only");
        }
        MiniMallocCsv.Document doc = MiniMallocCsv.read(file);
        Target target = capacity.isPresent() ? MiniMallocCsv.target(capacity.getAsLong()) : MiniMallocCsv.logicalTarget();
        return new WorkloadSources.Loaded(target, doc.workload(target), new WorkloadSources.Source.Csv(doc));
    }

    /** What {@code plan} says of a CSV planned without {@code --capacity}: one line (contract §7). */
    static final String LOGICAL_NOTE = "csv: no --capacity: space " + MiniMallocCsv.SPACE + " planned as a logical "
            + "space (no capacity), for its smallest height; --capacity SIZE plans it in a finite space of SIZE bytes";

    /** The note of {@link #LOGICAL_NOTE} with its line break, when {@code in} is a CSV planned without a capacity. */
    static String notes(WorkloadSources.Loaded in) {
        return in.source() instanceof WorkloadSources.Source.Csv && in.target().space(MiniMallocCsv.SPACE, "target") instanceof Space.Logical
                ? LOGICAL_NOTE + "\n" : "";
    }

    /** Refuses, before any planning, a CSV output for a workload that is not a CSV ({@code kind}: the workload's). */
    static void checkOutput(Path output, Path workload, InputKind kind) {
        if (output != null && isCsv(output) && kind != InputKind.MINIMALLOC_CSV) {
            throw BerthException.invalid("-o", output.toString(), "-o " + output + ": a CSV output holds the rows of a "
                    + "MiniMalloc CSV input with their offsets; for " + workload + " write the plan artifact (-o PLAN.json)");
        }
    }

    /** Refuses {@code --target} with a CSV workload, whose target comes from {@code --capacity}. */
    static void checkTarget(InputKind kind, boolean targetGiven) {
        if (targetGiven && kind == InputKind.MINIMALLOC_CSV) {
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
            if (!(in.source() instanceof WorkloadSources.Source.Csv csv)) {
                throw new IllegalStateException("a CSV output for a workload that is not a CSV, which checkOutput refuses");
            }
            return out -> MiniMallocCsv.write(csv.document(), plan, out);
        }
        return out -> PlanJson.write(plan, out);
    }
}
