package dev.berth.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.berth.measure.SpaceUse;
import dev.berth.text.Visible;
import dev.berth.arith.Checked;
import dev.berth.arith.Sizes;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.io.tflite.ImportedTflite;
import dev.berth.io.tflite.TfliteImport;
import dev.berth.io.tflite.TfliteModel;
import dev.berth.io.tflite.TflmGreedyPlanner;
import dev.berth.io.tflite.TflmHeadPlan;
import dev.berth.io.tflite.TflmScratch;
import dev.berth.io.tflite.TflmView;
import dev.berth.plan.Planner;
import dev.berth.target.Space;
import dev.berth.workload.Origin;

import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code plan} adds for a TFLite model: what the file holds, where its tensors went, and for
 * the arena (TFLM's planned head) the naive total beside the lower bound, this plan's high-water
 * mark and TFLM's own head (its greedy planner, reimplemented); with the kernels' scratch buffers
 * ({@code --tflm-scratch}), the head TFLM is predicted to end with beside TFLM's own and the offline
 * plans tried; then what TFLM adds at run time. An offline plan already in the file is shown with the
 * head its offsets give.
 */
final class TfliteSummary {
    private TfliteSummary() {
    }

    /** {@code scratchGiven}: {@code --tflm-scratch} was given (its list may be empty: kernels that request none). */
    static String render(ImportedTflite m, Plan plan, TflmHeadPlan.Choice head, boolean scratchGiven) {
        StringBuilder sb = new StringBuilder();
        int subgraphs = m.model().subgraphs().size();
        boolean controlFlow = m.model().subgraphs().stream().flatMap(g -> g.operators().stream())
                .anyMatch(o -> o.calls().length > 0);
        sb.append("tflite: ").append(subgraphs).append(subgraphs == 1 ? " subgraph, " : " subgraphs, ")
                .append(m.model().tensorCount()).append(" tensors, ").append(m.model().operatorCount())
                .append(m.model().operatorCount() == 1 ? " operator" : " operators").append("; steps 0..")
                .append(Math.max(0, m.view().lastStep())).append(" as TFLM counts them (0: inputs, then one per operator")
                .append(controlFlow ? " and one per subgraph an operator runs" : "").append(")")
                .append(m.stepShift() == 0 ? "" : "; Berth's steps are TFLM's plus one: its step 0 is TFLM's -1, where"
                        + " TFLM keeps the tensors it never marks as used")
                .append("\n");
        sb.append(storedShapes(m));
        long constantBytes = plan.buffers().stream().filter(b -> b.space().equals(m.constantSpace())
                && b.origin() == Origin.TENSOR && b.name().startsWith("buffer")).mapToLong(PlannedBuffer::requested).sum();
        sb.append("  ").append(m.plannedCount()).append(" tensors TFLM plans, in ").append(m.arenaSpace()).append("; ")
                .append(m.variableCount()).append(" variable, in ").append(m.variableSpace())
                .append(" (live over every step); ").append(m.constantCount()).append(" constant, in ")
                .append(m.constantSpace()).append(" (").append(Sizes.human(constantBytes)).append(" of buffers)\n");
        Space space = plan.target().spaces().get(m.arenaSpace());
        Set<String> plannedNames = new HashSet<>();
        m.view().entries().stream().filter(TflmView.Entry::planned).forEach(e -> plannedNames.add(e.label()));
        // the tensors Berth plans, and the fixed regions of those it keeps at the file plan's offsets
        List<PlannedBuffer> planned = plan.buffers().stream().filter(b -> b.space().equals(m.arenaSpace())
                && (b.origin() == Origin.TENSOR && plannedNames.contains(b.name()) || b.origin() == Origin.FIXED))
                .toList();
        SpaceUse use = SpaceUse.of(planned);
        long peak = use.peak().bytes();
        long high = use.highWater();
        boolean scratch = !m.scratch().isEmpty();
        long naive = 0;
        for (TflmView.Entry e : m.view().entries()) {
            if (e.planned()) {
                naive = Checked.add(naive, Planner.reservedSize(space, e.label(), e.bytes(), 1));
            }
        }
        sb.append("TFLM's planned tensors in ").append(m.arenaSpace()).append(" (reserved bytes, alignment ")
                .append(space.alignment()).append("):\n");
        line(sb, "naive total (own buffer each, no reuse):", Sizes.human(naive));
        line(sb, "peak live (lower bound of any placement):", Sizes.human(peak));
        line(sb, scratch ? "high-water of the tensors (this plan):" : "high-water (the head, this plan):",
                Sizes.human(high));
        line(sb, scratch ? "TFLM's own head of the tensors alone:" : "TFLM's own head (its greedy planner):",
                head.tflmTensorHead().isPresent() ? Sizes.human(head.tflmTensorHead().getAsLong()) : NOT_PREDICTED);
        SpaceMetrics arena = plan.metrics(space);
        if (scratch) {
            long scratchBytes = m.scratch().stream().mapToLong(TflmScratch::size).sum();
            sb.append("with the kernels' ").append(m.scratch().size()).append(" scratch buffers (")
                    .append(m.predicted().isPresent() ? "predicted for TFLM's reference kernels" : "--tflm-scratch")
                    .append(", ")
                    .append(Sizes.human(scratchBytes)).append("), which TFLM places online around the offline plan:\n");
            line(sb, "lower bound (tensors and scratch buffers):",
                    Sizes.human(arena.optimality().map(o -> o.lowerBound()).orElse(arena.peakLive())));
            line(sb, "predicted TFLM head (its greedy for them):", head.predictedHead().isEmpty() ? NOT_PREDICTED
                    : Sizes.human(head.predictedHead().getAsLong()) + arena.optimality().map(o -> ", "
                    + Tables.proof(o, arena)).orElse(""));
            line(sb, "TFLM's own head (its greedy, all online):", head.tflmHead().isPresent()
                    ? Sizes.human(head.tflmHead().getAsLong()) : NOT_PREDICTED);
            sb.append("  offline plan kept: ").append(head.chosen().text()).append(head.predicted() ? "; tried:" : "")
                    .append('\n');
            for (TflmHeadPlan.Candidate c : head.candidates()) {
                sb.append("    ").append(c.source().text()).append(": tensors in ").append(Sizes.human(c.tensorHead()))
                        .append(", head ").append(Sizes.human(c.predictedHead()))
                        .append(c.valid() ? "" : " (its layout failed the plan validator: not kept)").append('\n');
            }
        }
        if (head.predicted() && head.predictedHead().getAsLong() > head.tflmHead().getAsLong()) {
            sb.append("  above TFLM's own head: TFLM's own placement overlaps, under Berth's lifetimes, tensors TFLM never ")
                    .append("marks as used (lifetime -1), which Berth keeps live at step 0\n");
        }
        space.capacity().ifPresent(c -> line(sb, "arena capacity (--capacity):", Sizes.human(c) + ", spare "
                + Sizes.human(c - space.runtimeReserve() - arena.highWater())));
        sb.append("  the arena to give TFLM = this head + TFLM's persistent tail (variable tensors, kernel data, TFLM's own ")
                .append("structures), which TFLM adds at run time\n");
        if (m.predicted().isPresent() && !m.predicted().get().complete()) {
            sb.append("  scratch requests not predicted (Berth does not know these kernels): ");
            StringBuilder ops = new StringBuilder();
            m.predicted().get().unknown().forEach((op, n) -> ops.append(ops.length() == 0 ? "" : ", ")
                    .append(Visible.text(op)).append(n == 1 ? "" : " x" + n));
            sb.append(ops).append("; at run time their scratch buffers can make the head larger: give them with ")
                    .append("--tflm-scratch FILE\n");
        } else if (m.predicted().isPresent() && !scratch) {
            sb.append("  TFLM's reference kernels request no scratch buffers for these operators (predicted from their ")
                    .append("tensors), so TFLM's head at run time is this head\n");
        } else if (scratchGiven && !scratch) {
            sb.append("  --tflm-scratch: the kernels request no scratch buffers, so TFLM's head at run time is this head\n");
        } else if (!scratch) {
            sb.append("  at run time TFLM also adds the kernels' scratch buffers to the head, around the offline plan, which ")
                    .append("can make it larger: give them with --tflm-scratch FILE to plan with them\n");
        }
        m.model().offlinePlan().ifPresent(w -> filePlan(sb, m, head));
        return sb.toString();
    }

    /**
     * One line per input whose shape signature has -1 and that no {@code --input} stated: it is
     * planned at the shape the file stores, as TFLM plans it.
     */
    static String storedShapes(ImportedTflite m) {
        StringBuilder sb = new StringBuilder();
        for (TfliteModel.Tensor t : m.storedShape()) {
            String shape = TfliteImport.dims(t.shape());
            sb.append("  input ").append(Visible.text(t.label())).append(" (shape signature ")
                    .append(Arrays.toString(t.shapeSignature().orElseThrow()))
                    .append(") planned at the shape the file stores, ").append(shape)
                    .append(", as TFLM plans it (--input ").append(Visible.text(t.label())).append('=').append(shape)
                    .append(" states it; another shape is refused)\n");
        }
        return sb.toString();
    }

    /**
     * The plan the file already holds: its head, the tensors Berth kept at its offsets, its overlaps,
     * and which plan the written model gets (without {@code --replace-plan}: Berth's only when valid and
     * its head is no larger).
     */
    private static void filePlan(StringBuilder sb, ImportedTflite m, TflmHeadPlan.Choice head) {
        long extent = 0;
        for (TflmView.Entry e : m.view().entries()) {
            if (e.planned() && e.offlineOffset() >= 0) {
                extent = Math.max(extent, e.offlineEnd());
            }
        }
        Optional<TflmHeadPlan.Candidate> file = head.file();
        long fileHead = file.map(TflmHeadPlan.Candidate::predictedHead).orElse(extent);
        sb.append("  the file already holds an OfflineMemoryAllocation plan, which TFLM uses instead of its own: its ")
                .append("offsets give a head of ").append(Sizes.human(fileHead))
                .append(m.keepsFilePlan() ? "" : "; Berth's plan above ignores them (--replace-plan)").append('\n');
        Set<String> kept = new HashSet<>();
        m.kept().forEach(e -> kept.add(e.label()));
        if (!m.kept().isEmpty()) {
            Set<String> ops = new TreeSet<>();
            for (TfliteModel.Subgraph g : m.model().subgraphs()) {
                g.operators().stream().filter(o -> o.customCode().length() > 0 || o.opName().startsWith("CUSTOM"))
                        .forEach(o -> ops.add(Visible.text(o.opName())));
            }
            sb.append("  kept at the file's offsets: ").append(m.kept().size()).append(m.kept().size() == 1 ? " tensor"
                    : " tensors").append(" of custom operators (").append(String.join(", ", ops)).append("), whose use ")
                    .append("inside the operator TFLM's lifetimes do not describe; Berth plans the other tensors around ")
                    .append("them\n");
        }
        List<TflmView.Overlap> overlaps = m.view().offlineOverlaps(Integer.MAX_VALUE).stream()
                .filter(o -> !(kept.contains(o.a().label()) && kept.contains(o.b().label()))).limit(OVERLAPS_SHOWN + 1)
                .toList();
        if (overlaps.isEmpty()) {
            sb.append(kept.isEmpty() ? "  that plan places no two tensors TFLM's lifetimes say are live together at "
                    + "common bytes\n" : "  that plan places no two tensors TFLM's lifetimes say are live together at "
                    + "common bytes, but for kept tensors (a custom operator's, which Berth does not judge)\n");
        } else {
            sb.append("  that plan overlaps tensors TFLM's lifetimes say are live together (TFLM accepts it: it checks ")
                    .append("only the number of offsets):\n");
            for (TflmView.Overlap o : overlaps.subList(0, Math.min(OVERLAPS_SHOWN, overlaps.size()))) {
                sb.append("    ").append(describe(o.a())).append(" and ").append(describe(o.b())).append('\n');
            }
            if (overlaps.size() > OVERLAPS_SHOWN) {
                sb.append("    and more\n");
            }
        }
        if (!m.keepsFilePlan()) {
            return;
        }
        if (file.isEmpty()) {
            sb.append("  offline plan written: Berth's (TFLM's head not predicted, so not compared with the file's)\n");
            return;
        }
        OptionalLong berth = head.candidates().stream().filter(c -> c.source() != TflmHeadPlan.Source.FILE
                && c.valid()).mapToLong(TflmHeadPlan.Candidate::predictedHead).min();
        String theirs = berth.isPresent() ? Sizes.human(berth.getAsLong()) : "none valid";
        if (head.chosen() == TflmHeadPlan.Source.FILE) {
            sb.append("  offline plan written: the file's, kept (head ").append(Sizes.human(fileHead))
                    .append("; Berth's: ").append(theirs).append(file.get().valid() ? ""
                            : "; the file's layout fails Berth's validator").append(")\n");
        } else {
            sb.append("  offline plan written: Berth's (head ").append(theirs).append("; the file's: ")
                    .append(Sizes.human(fileHead)).append(file.get().valid() ? ", no smaller"
                            : ", its layout fails Berth's validator").append(")\n");
        }
    }

    private static final int OVERLAPS_SHOWN = 10;

    private static final String NOT_PREDICTED = "not computed (more than " + TflmGreedyPlanner.MAX_BUFFERS
            + " buffers: TFLM's greedy policy is quadratic)";

    /**
     * The {@code "tflm"} object of {@code plan --json}: the head ({@code head}, the arena's high-water
     * mark, and for the tensors alone {@code tensorHead}), TFLM's own ({@code tflmHead},
     * {@code tflmTensorHead}), the offline plan kept and every candidate tried; {@code predicted}
     * false (and no heads) for a model with more buffers than Berth runs TFLM's policy for.
     */
    static void writeJson(JsonGenerator g, ImportedTflite m, Plan plan,
                          TflmHeadPlan.Choice head) throws IOException {
        Space space = plan.target().spaces().get(m.arenaSpace());
        SpaceMetrics arena = plan.metrics(space);
        g.writeStartObject();
        g.writeNumberField("scratchBuffers", m.scratch().size());
        if (m.predicted().isPresent()) {
            g.writeArrayFieldStart("scratchNotPredicted");
            for (String op : m.predicted().get().unknown().keySet()) {
                g.writeString(op);
            }
            g.writeEndArray();
        }
        g.writeBooleanField("predicted", head.predicted());
        if (head.predicted()) {
            g.writeNumberField("head", head.predictedHead().getAsLong());
            g.writeNumberField("tensorHead", head.candidate(head.chosen()).tensorHead());
        }
        g.writeNumberField("lowerBound", arena.optimality().map(o -> o.lowerBound()).orElse(arena.peakLive()));
        if (head.predicted()) {
            g.writeNumberField("tflmHead", head.tflmHead().getAsLong());
            g.writeNumberField("tflmTensorHead", head.tflmTensorHead().getAsLong());
        }
        g.writeStringField("offlinePlan", id(head.chosen()));
        if (m.keepsFilePlan()) {
            g.writeNumberField("keptTensors", m.kept().size());
        }
        g.writeArrayFieldStart("candidates");
        for (TflmHeadPlan.Candidate c : head.candidates()) {
            g.writeStartObject();
            g.writeStringField("source", id(c.source()));
            g.writeNumberField("tensorHead", c.tensorHead());
            g.writeNumberField("head", c.predictedHead());
            g.writeBooleanField("valid", c.valid());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** {@code berth}, {@code berth-tensors-alone}, {@code tflm-own}. */
    static String id(TflmHeadPlan.Source s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** {@code t0 'input' at [0, 9216) over steps [0, 1]} ({@code unset}: TFLM never marks its first use). */
    private static String describe(TflmView.Entry e) {
        String first = e.firstUsed() == TflmView.UNSET ? "unset" : Integer.toString(e.firstUsed());
        return e.label() + " '" + Visible.text(e.name()) + "' at [" + e.offlineOffset() + ", " + e.offlineEnd() + ") over steps [" + first
                + ", " + e.lastUsed() + "]";
    }

    private static void line(StringBuilder sb, String label, String value) {
        sb.append(String.format(Locale.ROOT, "  %-42s %s%n", label, value));
    }
}
