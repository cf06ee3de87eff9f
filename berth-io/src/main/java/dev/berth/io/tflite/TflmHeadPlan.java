package dev.berth.io.tflite;

import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.plan.InvalidPlanException;
import dev.berth.plan.PlanResult;
import dev.berth.plan.Planner;
import dev.berth.measure.SpaceAssembler;
import dev.berth.solve.Progress;
import dev.berth.solve.SolverKind;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Origin;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The head TFLM will run a planned model with, and the offline plan that makes it smallest.
 *
 * <p>TFLM places the tensors an offline plan gives at their offsets, then every other buffer of its
 * head online with its greedy policy ({@link TflmGreedyPlanner}): the kernels' scratch buffers,
 * which no offline plan holds. So the head TFLM ends with is not the offline plan's own height, and
 * a smaller tensor plan can end larger than TFLM's own plan (keyword_scrambled_8bit: tensors in 288
 * bytes, 800 with the scratch buffers, TFLM's own 672). Berth predicts that head for a small fixed
 * list of offline plans and keeps the one with the smallest prediction (the first of the list on a
 * tie):
 *
 * <ol>
 *   <li>{@link Source#BERTH}: the tensors of Berth's plan, which placed the tensors and the scratch
 *       buffers together;</li>
 *   <li>{@link Source#BERTH_TENSORS_ALONE} (only when there are scratch buffers): the tensors of Berth's
 *       plan of the tensors alone;</li>
 *   <li>{@link Source#TFLM_OWN}: the tensors where TFLM's own online plan puts them. With these offsets
 *       TFLM places every scratch buffer where its own plan does (each goes to the lowest gap among the
 *       buffers live with it, and the only buffers added before it are ones its own plan placed around
 *       it), so its prediction is TFLM's own head, and the prediction kept is never above it. When
 *       Berth keeps tensors at the file plan's offsets ({@link ImportedTflite#kept}), TFLM's own
 *       placement of the other tensors around them;</li>
 *   <li>{@link Source#FILE} (only when the file holds an offline plan and Berth compares with it,
 *       {@link ImportedTflite#keepsFilePlan}): the file's offsets as they are. Last, so that Berth's
 *       own plan is written when its head is no larger.</li>
 * </ol>
 *
 * The plan returned is the head as TFLM will lay it out: the arena holds the tensors at the offline
 * offsets and each scratch buffer where TFLM's greedy puts it, and has been re-checked by the plan
 * validator (under Berth's lifetimes) before it is returned; a candidate whose layout does not pass
 * is not kept. Its arena is assembled again by the one rule ({@link SpaceAssembler}) from the lower
 * bound Berth's plan proved for the same reservations: the layout is proved optimal when it reaches
 * it, else the bracket is open (reason {@code heuristic}: TFLM's greedy placed part of it). A layout
 * whose live bytes pass that bound (an in-place pair placed apart) is not kept either.
 *
 * <p>A model whose head has more than {@link TflmGreedyPlanner#MAX_BUFFERS} buffers is not predicted
 * (TFLM's policy is quadratic): Berth's plan is kept as it is, with no prediction.
 */
public final class TflmHeadPlan {
    /** Where a candidate offline plan's tensor offsets come from. */
    public enum Source {
        BERTH("Berth's plan (tensors and scratch buffers together)"),
        BERTH_TENSORS_ALONE("Berth's plan of the tensors alone"),
        TFLM_OWN("TFLM's own placement of the tensors"),
        FILE("the plan the file holds");

        private final String text;

        Source(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    /**
     * One candidate: its offline offsets (per tensor of the model, -1 where TFLM plans or places the
     * tensor itself), the head of its tensors, the head TFLM would end with, and whether its layout
     * passed the plan validator.
     */
    public record Candidate(Source source, int[] offline, long tensorHead, long predictedHead, boolean valid) {
        public Candidate {
            offline = offline.clone();
        }

        @Override
        public int[] offline() {
            return offline.clone();
        }
    }

    /**
     * What {@link #choose} found.
     *
     * @param result         the plan kept (validated): the head as TFLM will lay it out
     * @param offline        its offline plan, for {@code --tflm-plan}
     * @param chosen         the candidate it came from
     * @param predictedHead  the head TFLM will end with: tensors at {@code offline}, scratch buffers
     *                       placed online by TFLM's greedy policy; empty when not predicted
     * @param tflmHead       TFLM's own head for the same buffers (its greedy policy, every buffer online)
     * @param tflmTensorHead TFLM's own head of the tensors alone (no scratch buffers; TFLM's allocator
     *                       without kernels)
     * @param candidates     every candidate tried, in the order tried (none when not predicted)
     */
    public record Choice(PlanResult result, int[] offline, Source chosen, OptionalLong predictedHead,
                         OptionalLong tflmHead, OptionalLong tflmTensorHead, List<Candidate> candidates) {
        public Choice {
            offline = offline.clone();
            candidates = List.copyOf(candidates);
        }

        @Override
        public int[] offline() {
            return offline.clone();
        }

        /** The file's own plan's candidate, when Berth compared its plan with it. */
        public Optional<Candidate> file() {
            return candidates.stream().filter(c -> c.source() == Source.FILE).findFirst();
        }

        /** Whether TFLM's head was predicted (the model has at most {@link TflmGreedyPlanner#MAX_BUFFERS} buffers). */
        public boolean predicted() {
            return predictedHead.isPresent();
        }

        public Candidate candidate(Source s) {
            return candidates.stream().filter(c -> c.source() == s).findFirst().orElseThrow();
        }
    }

    private TflmHeadPlan() {
    }

    /**
     * Chooses the offline plan for {@code m}, given Berth's plan {@code planned} of {@code m}'s workload
     * (tensors and scratch buffers); {@code options} plan the tensors alone when there are scratch buffers.
     */
    public static Choice choose(ImportedTflite m, PlanResult planned, Planner.Options options) {
        TflmView view = m.view();
        List<TflmScratch> scratch = m.scratch();
        if (TflmGreedyPlanner.bufferCount(view, scratch) > TflmGreedyPlanner.MAX_BUFFERS) {
            return new Choice(planned, TflmOfflinePlan.offsets(m, planned.plan()), Source.BERTH, OptionalLong.empty(),
                    OptionalLong.empty(), OptionalLong.empty(), List.of());
        }
        TflmGreedyPlanner.ModelPlan own = TflmGreedyPlanner.ofModel(view, null, scratch);
        long ownTensors = scratch.isEmpty() ? own.head() : TflmGreedyPlanner.ofModel(view, null, List.of()).head();

        List<Source> sources = new ArrayList<>();
        List<int[]> offsets = new ArrayList<>();
        sources.add(Source.BERTH);
        offsets.add(TflmOfflinePlan.offsets(m, planned.plan()));
        if (!scratch.isEmpty()) {
            sources.add(Source.BERTH_TENSORS_ALONE);
            // the same search, its progress shown, its brackets (those of another workload) not reported
            Progress shown = options.progress();
            Planner.Options quiet = options.withProgress(shown::searching);
            offsets.add(TflmOfflinePlan.offsets(m, Planner.plan(m.target(), withoutScratch(m), quiet).plan()));
        }
        int[] kept = m.keptOffsets();
        int[] ownOffsets = intOffsets((kept == null ? own : TflmGreedyPlanner.ofModel(view, kept, scratch)).tensorOffset());
        if (ownOffsets != null) {
            sources.add(Source.TFLM_OWN);
            offsets.add(ownOffsets);
        }
        if (m.keepsFilePlan()) {
            sources.add(Source.FILE);
            offsets.add(m.fileOffsets());
        }

        List<Candidate> candidates = new ArrayList<>();
        PlanResult best = null;
        int bestIndex = -1;
        long bestHead = Long.MAX_VALUE;
        for (int c = 0; c < sources.size(); c++) {
            int[] offline = offsets.get(c);
            TflmGreedyPlanner.ModelPlan p = TflmGreedyPlanner.ofModel(view, offline, scratch);
            Optional<PlanResult> layout = layout(m, planned, offline, p, sources.get(c));
            candidates.add(new Candidate(sources.get(c), offline, p.tensorHead(view), p.head(), layout.isPresent()));
            if (layout.isPresent() && p.head() < bestHead) {
                best = layout.get();
                bestIndex = c;
                bestHead = p.head();
            }
        }
        if (best == null) {
            // no layout passed the validator: keep Berth's plan (validated by the planner) and its offsets
            best = planned;
            bestIndex = 0;
            bestHead = candidates.get(0).predictedHead();
        }
        int[] offline = sources.get(bestIndex) == Source.FILE ? offsets.get(bestIndex)
                : TflmOfflinePlan.offsets(m, best.plan());
        if (!Arrays.equals(offline, offsets.get(bestIndex))) {
            throw new IllegalStateException("the plan kept does not hold the offsets of " + sources.get(bestIndex));
        }
        return new Choice(best, offline, sources.get(bestIndex), OptionalLong.of(bestHead), OptionalLong.of(own.head()),
                OptionalLong.of(ownTensors), candidates);
    }

    /** The workload without its scratch buffers. */
    private static Workload withoutScratch(ImportedTflite m) {
        Set<String> names = new HashSet<>();
        for (int k = 0; k < m.scratch().size(); k++) {
            names.add(TflmScratch.label(k));
        }
        List<BufferSpec> keep = m.workload().buffers().stream().filter(b -> !names.contains(b.name())).toList();
        return new Workload(m.workload().name(), keep, m.workload().fixed());
    }

    /** {@code null} if an offset does not fit TFLM's int32 offline plan. */
    private static int[] intOffsets(long[] offsets) {
        int[] out = new int[offsets.length];
        for (int i = 0; i < out.length; i++) {
            if (offsets[i] > Integer.MAX_VALUE) {
                return null;
            }
            out[i] = (int) offsets[i];
        }
        return out;
    }

    /**
     * {@code planned}'s plan with the arena as TFLM will lay it out (tensors at {@code offline},
     * scratch buffers where {@code p} puts them), validated; empty if the validator refuses it.
     */
    private static Optional<PlanResult> layout(ImportedTflite m, PlanResult planned, int[] offline,
                                               TflmGreedyPlanner.ModelPlan p, Source source) {
        Plan base = planned.plan();
        Map<String, Long> at = new HashMap<>();
        List<TflmView.Entry> entries = m.view().entries();
        for (int i = 0; i < entries.size(); i++) {
            if (offline[i] >= 0) {
                at.put(entries.get(i).label(), (long) offline[i]);
            }
        }
        long[] scratchAt = p.scratchOffset();
        for (int k = 0; k < scratchAt.length; k++) {
            at.put(TflmScratch.label(k), scratchAt[k]);
        }
        String arena = m.arenaSpace();
        List<PlannedBuffer> buffers = new ArrayList<>(base.buffers().size());
        boolean moved = false;
        for (PlannedBuffer b : base.buffers()) {
            Long o = b.space().equals(arena) && b.origin() == Origin.TENSOR ? at.get(b.name()) : null;
            if (o != null && o != b.offset()) {
                moved = true;
                b = new PlannedBuffer(b.name(), b.space(), o, b.requested(), b.reserved(), b.alignment(), b.live(),
                        b.origin(), b.of(), b.sharesWith());
            }
            buffers.add(b);
        }
        if (!moved) {
            return Optional.of(planned);
        }
        // a pair placed apart (TFLM's own placement) is no longer written over its input
        Map<String, Long> offsetOf = new HashMap<>();
        buffers.forEach(b -> offsetOf.put(b.name(), b.offset()));
        for (int i = 0; i < buffers.size(); i++) {
            PlannedBuffer b = buffers.get(i);
            if (b.sharesWith().isPresent() && !Long.valueOf(b.offset()).equals(offsetOf.get(b.sharesWith().get()))) {
                buffers.set(i, new PlannedBuffer(b.name(), b.space(), b.offset(), b.requested(), b.reserved(),
                        b.alignment(), b.live(), b.origin(), b.of()));
            }
        }
        List<PlannedBuffer> inArena = buffers.stream().filter(b -> b.space().equals(arena)).toList();
        SolverKind solver = source == Source.TFLM_OWN ? SolverKind.GREEDY : planned.solverBySpace().get(arena);
        // what Berth's plan proved for the same reservations (TFLM's arena has no generation-time allocations)
        Optional<SpaceAssembler.Known> known = base.spaces().get(arena).optimality().map(o ->
                new SpaceAssembler.Known(solver, 0, o.lowerBound(), Optimality.Open.HEURISTIC, o.timeLimited()));
        SpaceMetrics laid = SpaceAssembler.metrics(base.target().spaces().get(arena), inArena, known);
        if (!keepsBound(base.spaces().get(arena), laid)) {
            return Optional.empty();
        }
        Map<String, SpaceMetrics> metrics = new LinkedHashMap<>(base.spaces());
        metrics.put(arena, laid);
        Plan plan = new Plan(base.target(), base.workload(), base.solver(), metrics, buffers, base.descriptors(),
                base.assignment(), base.order());
        Map<String, SolverKind> solvers = new LinkedHashMap<>(planned.solverBySpace());
        solvers.put(arena, solver);
        try {
            return Optional.of(PlanResult.validated(plan, solvers));
        } catch (InvalidPlanException refused) {
            return Optional.empty();
        }
    }

    /**
     * Whether the arena laid out ({@code laid}) keeps the lower bound Berth's plan proved for it
     * ({@code was}): its peak of live bytes is not above the bound, nor its high-water mark below it.
     * A layout that does not is not kept (a candidate not valid), as before the one assembler: an
     * in-place pair TFLM's own placement puts apart raises the live bytes above the bound
     * (face_detection_short_range with in-place elementwise pairs: 1376256 bytes live, the bound
     * 1310720), and the bracket the plan used to claim for it failed the plan validator.
     */
    private static boolean keepsBound(SpaceMetrics was, SpaceMetrics laid) {
        return was.optimality().map(o -> laid.peakLive() <= o.lowerBound() && o.lowerBound() <= laid.highWater())
                .orElse(true);
    }
}
