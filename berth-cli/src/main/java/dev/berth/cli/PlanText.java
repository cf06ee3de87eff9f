package dev.berth.cli;

import dev.berth.artifact.Plan;
import dev.berth.text.Visible;
import dev.berth.io.tflite.ImportedTflite;
import dev.berth.plan.PlanResult;
import dev.berth.target.Target;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * {@code berth plan}'s output as text (contract §7): the verified line, the space table, the
 * schedule, the assignment, the clock's and the tiles' notes, what the input's kind adds (a CSV's
 * note, an ONNX or TFLite model's summary), the picture with {@code --show}, and, but with
 * {@code -q}, a line for each file written.
 */
final class PlanText {
    private PlanText() {
    }

    static void print(PrintWriter out, PlanRequest request, PlanOutcome planned) {
        PlanResult r = planned.result();
        Plan plan = r.plan();
        WorkloadSources.Loaded in = planned.in();
        Target t = in.target();
        PlanRequest.Print print = request.print();
        out.println("plan " + Visible.text(plan.workload()) + " on target " + Visible.text(t.name()) + ": "
                + plan.buffers().size()
                + " reservations, verified (" + r.verdict().checks() + " checks)");
        out.print(Tables.summary(plan));
        planned.scheduled().chosen().ifPresent(c -> out.print(OrderSummary.render(c)));
        r.assignment().ifPresent(a -> out.print(AssignmentTable.render(a, plan)));
        out.print(Tables.clockNotes(plan, request.search().timeLimitSeconds()));
        out.print(Tables.tilesAndGeneration(plan));
        out.print(CsvWorkloads.notes(in));
        if (in.source() instanceof WorkloadSources.Source.Onnx onnx) {
            out.print(OnnxSummary.render(onnx.model(), plan));
        }
        Optional<ImportedTflite> tflite = planned.tflite();
        if (tflite.isPresent() && planned.head().isPresent()) {
            out.print(TfliteSummary.render(tflite.get(), plan, planned.head().get(), print.scratchGiven()));
        } else {
            tflite.ifPresent(m -> out.print(TfliteSummary.storedShapes(m)));
        }
        if (print.show()) {
            r.assignment().ifPresent(a -> out.print(AssignmentTable.why(a)));
            out.println();
            out.print(Picture.render(plan, print.width() > 0 ? print.width() : Terminal.columns()));
        }
        if (!print.quiet()) {
            written(out, request.outputs(), planned);
        }
    }

    /** The lines that say which files were written (not with {@code -q}). */
    private static void written(PrintWriter out, PlanRequest.Outputs files, PlanOutcome planned) {
        Optional<Path> output = files.output();
        out.println(output.isEmpty() ? "no artifact written (use -o PLAN.json)"
                : "wrote " + Visible.text(output.get().toString()));
        files.report().ifPresent(report -> out.println("wrote " + Visible.text(report.toString())));
        if (files.tflmPlan().isPresent()) {
            int[] offline = planned.offline();
            long given = Arrays.stream(offline).filter(o -> o >= 0).count();
            out.println("wrote " + Visible.text(files.tflmPlan().get().toString()) + " (OfflineMemoryAllocation: "
                    + offline.length + " offsets, " + given + " given, -1 for the rest)");
        }
    }
}
