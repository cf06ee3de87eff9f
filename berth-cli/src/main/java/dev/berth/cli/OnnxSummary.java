package dev.berth.cli;

import dev.berth.arith.Checked;
import dev.berth.arith.Sizes;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.measure.SpaceUse;
import dev.berth.text.Visible;
import dev.berth.io.onnx.ImportedModel;
import dev.berth.io.onnx.TensorRecord;
import dev.berth.plan.Planner;
import dev.berth.target.Space;
import dev.berth.workload.Origin;

import java.util.List;
import java.util.Locale;

/**
 * What {@code plan} adds for an ONNX model: what the import found, and for the activations the
 * naive total (every tensor its own buffer, no reuse) beside the plan's peak live and
 * high-water mark, so that the saving is visible.
 */
final class OnnxSummary {
    private OnnxSummary() {
    }

    /** The naive total in reserved bytes: each activation rounded up to the space's alignment. */
    static long naiveReserved(ImportedModel m, Space space) {
        long sum = 0;
        for (TensorRecord t : m.activations()) {
            sum = Checked.add(sum, Planner.reservedSize(space, t.name(), t.bytes(), 1));
        }
        return sum;
    }

    static String render(ImportedModel m, Plan plan) {
        StringBuilder sb = new StringBuilder();
        long inputs = m.activations().stream().filter(t -> t.kind() == TensorRecord.Kind.INPUT).count();
        sb.append("onnx: ").append(m.steps().size()).append(" steps (one per node, opset ").append(m.opset()).append("), ")
                .append(m.activations().size()).append(" activation tensors (").append(inputs).append(" graph input")
                .append(inputs == 1 ? "" : "s").append(") in ").append(m.activationSpace()).append(", ")
                .append(m.weights().size()).append(" weights of ").append(Sizes.human(m.weightBytes())).append(" in ")
                .append(m.constantSpace()).append('\n');
        if (!m.viewsShared().isEmpty()) {
            int v = m.viewsShared().size();
            sb.append("  ").append(v).append(v == 1 ? " view shares its input's buffer" : " views share their input's buffer")
                    .append(" (Reshape, Flatten, Squeeze, Unsqueeze, Identity whose input dies there)\n");
        }
        for (String f : m.foldedIfs()) {
            sb.append("  If folded: ").append(Visible.text(f)).append('\n');
        }
        Space space = plan.target().spaces().get(m.activationSpace());
        // the activations alone: the space's metrics also count what generation added above them
        List<PlannedBuffer> acts = plan.buffers().stream()
                .filter(b -> b.space().equals(m.activationSpace()) && b.origin() == Origin.TENSOR)
                .toList();
        SpaceUse use = SpaceUse.of(acts);
        long peak = use.peak().bytes();
        long high = use.highWater();
        long naive = naiveReserved(m, space);
        sb.append("activations in ").append(m.activationSpace()).append(" (reserved bytes, alignment ")
                .append(space.alignment()).append("):\n");
        sb.append(String.format(Locale.ROOT, "  %-42s %s%n", "naive total (own buffer each, no reuse):", Sizes.human(naive)));
        sb.append(String.format(Locale.ROOT, "  %-42s %s%n", "peak live (lower bound of any placement):",
                Sizes.human(peak)));
        sb.append(String.format(Locale.ROOT, "  %-42s %s%n", "high-water (this plan):", Sizes.human(high)));
        if (naive > 0) {
            long saved = naive - high;
            sb.append(String.format(Locale.ROOT, "  planning needs %.1f%% of the naive total (saves %s)%n",
                    100.0 * high / naive, Sizes.human(Math.max(0, saved))));
        }
        return sb.toString();
    }
}
