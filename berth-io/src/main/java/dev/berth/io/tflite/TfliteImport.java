package dev.berth.io.tflite;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.io.model.InputFix;
import dev.berth.io.model.ModelSpaces;
import dev.berth.target.Space;
import dev.berth.target.Target;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.FixedRegion;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;
import org.tensorflow.lite.schema.BuiltinOperator;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * TFLite model → workload, with TFLM's view of the tensors ({@link TflmView}):
 *
 * <ul>
 *   <li>each tensor TFLM plans becomes a buffer of its bytes in the arena space (the bundled
 *       {@code tflm} target's {@code arena}, alignment 16, so reservations are TFLM's sizes rounded
 *       up to 16), live from its first to its last use (a first use TFLM never sets is TFLM's step -1: see
 *       {@link #stepShift});</li>
 *   <li>variable tensors (LSTM / SVDF state) must keep their bytes between invocations: they live
 *       over every step, in the {@code persistent} space when the target has one (where TFLM puts
 *       them: its persistent tail, not the planned head), else in the arena;</li>
 *   <li>constant data goes to the constant space ({@code flash}), one buffer per model buffer that
 *       constant tensors read, live over every step;</li>
 *   <li>the kernels' scratch buffers, when given ({@link Options#scratch}), go to the arena beside the
 *       tensors as {@code scratch0}, {@code scratch1}, ..., live over their steps.</li>
 * </ul>
 *
 * Steps are TFLM's: 0 is subgraph 0's inputs, each operator (and each entry into a control-flow
 * subgraph) one more; plus one when TFLM leaves a planned tensor unmarked ({@link #stepShift}).
 */
public final class TfliteImport {

    /**
     * @param inputs          {@code --input NAME=DIMS} texts, for inputs whose shape signature has -1
     * @param activationSpace where planned tensors go; default {@code arena}, else {@code global}, else
     *                        the target's only logical space
     * @param constantSpace   where constant data goes; default {@code flash}, else {@code weights},
     *                        else the target's only external space, else the activation space
     * @param capacity        {@code --capacity}: the arena becomes a finite (local) space of this size
     * @param scratch         {@code --tflm-scratch}: the kernels' scratch buffers, planned in the arena
     *                        beside the tensors (their steps must lie in the model's)
     * @param replacePlan     {@code --replace-plan}: an offline plan already in the file is ignored (else
     *                        its offsets of custom operators' tensors are kept, and Berth's plan compared
     *                        with it: {@link ImportedTflite#keepsFilePlan})
     * @param predictScratch  the kernels' scratch buffers are those TFLM's reference kernels request
     *                        ({@link TflmKernels#reference}); {@code scratch} must then be empty
     */
    public record Options(List<String> inputs, Optional<String> activationSpace, Optional<String> constantSpace,
                          OptionalLong capacity, List<TflmScratch> scratch, boolean replacePlan,
                          boolean predictScratch) {
        public Options {
            inputs = List.copyOf(inputs);
            scratch = List.copyOf(scratch);
            if (predictScratch && !scratch.isEmpty()) {
                throw Require.invalid("predictScratch", "the scratch buffers are either given ("
                        + scratch.size() + " are) or predicted, not both");
            }
        }

        public Options(List<String> inputs, Optional<String> activationSpace, Optional<String> constantSpace,
                       OptionalLong capacity, List<TflmScratch> scratch) {
            this(inputs, activationSpace, constantSpace, capacity, scratch, false, false);
        }

        public Options(List<String> inputs, Optional<String> activationSpace, Optional<String> constantSpace,
                       OptionalLong capacity) {
            this(inputs, activationSpace, constantSpace, capacity, List.of());
        }

        public static Options of(String... inputs) {
            return new Options(List.of(inputs), Optional.empty(), Optional.empty(), OptionalLong.empty());
        }

        /** The same options with the kernels' scratch buffers. */
        public Options withScratch(List<TflmScratch> buffers) {
            return new Options(inputs, activationSpace, constantSpace, capacity, buffers, replacePlan, false);
        }

        /** The same options with the scratch buffers TFLM's reference kernels request. */
        public Options withPredictedScratch() {
            return new Options(inputs, activationSpace, constantSpace, capacity, List.of(), replacePlan, true);
        }

        /** The same options with {@code --replace-plan} ({@code replace}) or without. */
        public Options withReplacePlan(boolean replace) {
            return new Options(inputs, activationSpace, constantSpace, capacity, scratch, replace, predictScratch);
        }
    }

    private TfliteImport() {
    }

    /** Imports a model file. */
    public static ImportedTflite read(Path file, Target target, Options options) {
        String fileName = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        return convert(TfliteReader.read(file), file.toString(), stem(fileName), target, options);
    }

    /** Imports a model held in a buffer; {@code fileName} names it. */
    public static ImportedTflite read(ByteBuffer bytes, String fileName, Target target, Options options) {
        return convert(TfliteReader.read(bytes, fileName), fileName, stem(fileName), target, options);
    }

    static String stem(String fileName) {
        return fileName.toLowerCase(Locale.ROOT).endsWith(".tflite")
                ? fileName.substring(0, fileName.length() - 7) : fileName;
    }

    private static ImportedTflite convert(TfliteModel m, String what, String name, Target target, Options o) {
        if (m.version() != 3) {
            throw Require.invalid(what, "the model has schema version " + m.version()
                    + "; TFLM (and Berth) read version 3");
        }
        List<TfliteModel.Tensor> storedShape = checkInputs(m, InputFix.parse(o.inputs()), what);
        TflmView view = TflmView.of(m, what);
        Optional<TflmKernels.Prediction> predicted = o.predictScratch()
                ? Optional.of(TflmKernels.reference(m, view, what)) : Optional.empty();
        List<TflmScratch> scratch = predicted.map(TflmKernels.Prediction::scratch).orElse(o.scratch());
        TflmScratch.checkSteps(scratch, Math.max(0, view.lastStep()), "--tflm-scratch");
        String act = ModelSpaces.activations(target, o.activationSpace(), List.of("arena", "global"), "tensors'");
        Target t = o.capacity().isPresent() ? finite(target, act, o.capacity().getAsLong()) : target;
        Space arena = t.space(act, "--activation-space");
        Space constants = t.space(ModelSpaces.constants(t, o.constantSpace(), List.of("flash", "weights"), act),
                "--weight-space");
        Space persistent = t.findSpace("persistent").filter(s -> s instanceof Space.Logical).orElse(arena);
        int shift = stepShift(view);
        int last = Math.max(0, view.lastStep()) + shift;
        List<BufferSpec> planned = new ArrayList<>();
        List<BufferSpec> variables = new ArrayList<>();
        List<BufferSpec> constant = new ArrayList<>();
        Map<String, String> bufferOf = new LinkedHashMap<>();
        Map<Long, String> constantBuffer = new LinkedHashMap<>();
        boolean keepsFilePlan = m.offlinePlan().isPresent() && !o.replacePlan();
        List<TflmView.Entry> kept = keepsFilePlan ? kept(m, view) : List.of();
        Set<String> keptLabels = new HashSet<>();
        kept.forEach(e -> keptLabels.add(e.label()));
        for (TflmView.Entry e : view.entries()) {
            TfliteModel.Tensor tensor = m.subgraphs().get(e.subgraph()).tensors().get(e.index());
            if (keptLabels.contains(e.label())) {
                continue;
            }
            if (e.planned()) {
                Lifetime live = e.variable() ? new Lifetime(0, last) : lifetime(e, shift);
                planned.add(new BufferSpec(e.label(), e.bytes(), arena, 1, live, Optional.empty()));
                bufferOf.put(e.label(), e.label());
            } else if (e.variable() && e.bytes() > 0) {
                variables.add(new BufferSpec(e.label(), e.bytes(), persistent, 1, new Lifetime(0, last), Optional.empty()));
                bufferOf.put(e.label(), e.label());
            } else if (e.constant()) {
                String b = constantBuffer.get(tensor.buffer());
                if (b == null) {
                    b = "buffer" + tensor.buffer();
                    constantBuffer.put(tensor.buffer(), b);
                    constant.add(new BufferSpec(b, m.bufferBytes()[(int) tensor.buffer()], constants, 1,
                            new Lifetime(0, last), Optional.empty()));
                }
                bufferOf.put(e.label(), b);
            }
        }
        for (int k = 0; k < scratch.size(); k++) {
            TflmScratch s = scratch.get(k);
            planned.add(new BufferSpec(TflmScratch.label(k), s.size(), arena, 1,
                    new Lifetime(s.first() + shift, s.last() + shift),
                    Optional.empty()));
        }
        List<BufferSpec> all = new ArrayList<>(planned);
        all.addAll(variables);
        all.addAll(constant);
        Map<String, Long> accesses = accesses(m, view);
        accesses.keySet().removeAll(keptLabels);
        return new ImportedTflite(name, m, view, t, new Workload(name, all, keptRegions(kept, arena, shift)),
                arena.name(), persistent.name(), constants.name(), bufferOf, scratch, accesses, storedShape,
                keepsFilePlan, kept, predicted);
    }

    /** Custom operators' tensors a file's plan places more than this many of are refused (the regions' sweep is quadratic). */
    static final int MAX_KEPT = 4096;

    /**
     * The tensors whose offsets in the file's offline plan Berth keeps: planned tensors the plan gives
     * an offset that an operator of a custom code reads, writes or holds as an intermediate (an
     * Ethos-U operator's input, output and scratch tensors, say): what the NPU does with them inside
     * the operator TFLM's lifetimes do not describe, so Berth cannot tell whether the plan's overlaps
     * between them are safe, and does not move them.
     */
    private static List<TflmView.Entry> kept(TfliteModel m, TflmView view) {
        Set<String> custom = new HashSet<>();
        for (TfliteModel.Subgraph g : m.subgraphs()) {
            for (TfliteModel.Operator op : g.operators()) {
                if (op.builtinCode() == BuiltinOperator.CUSTOM) {
                    for (int[] tensors : new int[][] {op.inputs(), op.outputs(), op.intermediates()}) {
                        for (int t : tensors) {
                            if (t >= 0) {
                                custom.add(g.index() + ":" + t);
                            }
                        }
                    }
                }
            }
        }
        List<TflmView.Entry> kept = new ArrayList<>();
        for (TflmView.Entry e : view.entries()) {
            if (e.planned() && e.offlineOffset() >= 0 && custom.contains(e.subgraph() + ":" + e.index())) {
                kept.add(e);
            }
        }
        if (kept.size() > MAX_KEPT) {
            throw BerthException.invalid("--replace-plan", "the file's offline plan places " + kept.size() + " tensors "
                    + "of custom operators, more than the " + MAX_KEPT + " Berth keeps; plan with --replace-plan to "
                    + "replace the file's plan by Berth's own");
        }
        return kept;
    }

    /**
     * The kept tensors as fixed regions of the arena, which Berth plans around: for each span of
     * steps over which the same kept tensors are live, the union of their bytes (each rounded up to
     * 16, as TFLM rounds it), so that no two regions overlap although kept tensors may (Vela puts an
     * NPU's input and scratch tensors at one offset).
     */
    static List<FixedRegion> keptRegions(List<TflmView.Entry> kept, Space arena, int shift) {
        TreeSet<Integer> cutSet = new TreeSet<>();
        List<Lifetime> live = new ArrayList<>();
        for (TflmView.Entry e : kept) {
            Lifetime l = lifetime(e, shift);
            live.add(l);
            cutSet.add(l.first());
            cutSet.add(l.last() + 1);
        }
        List<Integer> cuts = new ArrayList<>(cutSet);
        List<FixedRegion> out = new ArrayList<>();
        List<long[]> open = List.of();
        int openFrom = 0;
        for (int i = 0; i + 1 < cuts.size(); i++) {
            int from = cuts.get(i);
            int to = cuts.get(i + 1) - 1;
            List<long[]> bytes = new ArrayList<>();
            for (int k = 0; k < kept.size(); k++) {
                if (live.get(k).first() <= from && live.get(k).last() >= to) {
                    bytes.add(new long[] {kept.get(k).offlineOffset(), kept.get(k).offlineEnd()});
                }
            }
            List<long[]> union = union(bytes);
            if (!same(union, open)) {
                close(out, open, openFrom, from - 1, arena);
                open = union;
                openFrom = from;
            }
        }
        if (!cuts.isEmpty()) {
            close(out, open, openFrom, cuts.get(cuts.size() - 1) - 1, arena);
        }
        return out;
    }

    private static List<long[]> union(List<long[]> ranges) {
        ranges.sort(Comparator.comparingLong(r -> r[0]));
        List<long[]> out = new ArrayList<>();
        for (long[] r : ranges) {
            if (!out.isEmpty() && r[0] <= out.get(out.size() - 1)[1]) {
                out.get(out.size() - 1)[1] = Math.max(out.get(out.size() - 1)[1], r[1]);
            } else {
                out.add(new long[] {r[0], r[1]});
            }
        }
        return out;
    }

    private static boolean same(List<long[]> a, List<long[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static void close(List<FixedRegion> out, List<long[]> ranges, int first, int last, Space arena) {
        for (long[] r : ranges) {
            out.add(FixedRegion.at("kept" + out.size(), arena, r[0], r[1] - r[0], new Lifetime(first, last)));
        }
    }

    /**
     * 1 when TFLM's walk leaves a tensor it plans itself (planned, not variable) never marked
     * ({@link TflmView#UNSET} to {@link TflmView#UNSET}: an unused tensor, or one of a subgraph nothing
     * runs), else 0. TFLM keeps such a tensor at step -1, where it overlaps only the tensors whose first
     * use is also unset; Berth's steps are then TFLM's plus one, so Berth's step 0 is TFLM's -1 and the
     * two conflict relations are the same.
     */
    static int stepShift(TflmView view) {
        for (TflmView.Entry e : view.entries()) {
            if (e.planned() && !e.variable() && e.lastUsed() == TflmView.UNSET) {
                return 1;
            }
        }
        return 0;
    }

    /**
     * A tensor's lifetime in Berth's steps: TFLM's inclusive [first, last] plus {@code shift}; an unset
     * first use is TFLM's step -1, an unset last use (never read) ends at the first use.
     */
    static Lifetime lifetime(TflmView.Entry e, int shift) {
        int first = e.firstUsed() == TflmView.UNSET ? -1 : e.firstUsed();
        int last = Math.max(first, e.lastUsed());
        // with shift 0 no tensor's first and last are both unset; one whose first alone is unset (read,
        // never written) overlaps everything up to its last use either way
        return new Lifetime(Math.max(0, first + shift), Math.max(0, last + shift));
    }

    /**
     * The import's estimate of each arena tensor's accesses (planned, not variable): one write (by
     * its operator, or by the caller for a model input), one read per operator input that reads
     * it, in any subgraph, one more for an output of the model (the caller reads it).
     */
    static Map<String, Long> accesses(TfliteModel m, TflmView view) {
        Map<String, Long> reads = new LinkedHashMap<>();
        for (TfliteModel.Subgraph sg : m.subgraphs()) {
            for (TfliteModel.Operator op : sg.operators()) {
                for (int in : op.inputs()) {
                    if (in >= 0) {
                        reads.merge(sg.index() + ":" + in, 1L, Long::sum);
                    }
                }
            }
        }
        if (!m.subgraphs().isEmpty()) {
            for (int out : m.subgraphs().get(0).outputs()) {
                if (out >= 0) {
                    reads.merge("0:" + out, 1L, Long::sum);
                }
            }
        }
        Map<String, Long> n = new LinkedHashMap<>();
        for (TflmView.Entry e : view.entries()) {
            if (e.planned() && !e.variable()) {
                n.put(e.label(), 1 + reads.getOrDefault(e.subgraph() + ":" + e.index(), 0L));
            }
        }
        return n;
    }

    /** The target with space {@code name} made local with {@code capacity} bytes (format, alignment kept). */
    static Target finite(Target target, String name, long capacity) {
        Map<String, Space> spaces = new LinkedHashMap<>(target.spaces());
        Space s = target.space(name, "--activation-space");
        if (s instanceof Space.External) {
            throw BerthException.invalid("--capacity", "--capacity gives the arena's size; space " + name
                    + " of target " + target.name() + " is external");
        }
        if (capacity < s.runtimeReserve()) {
            throw BerthException.invalid("--capacity", Long.toString(capacity), "--capacity " + capacity
                    + " is below space " + name + "'s runtime reserve of " + s.runtimeReserve() + " bytes");
        }
        long addressable = s.format().addressableBytes();
        if (capacity > addressable) {
            throw BerthException.invalid("--capacity", Long.toString(capacity), "--capacity " + capacity + " is more "
                    + "than space " + name + "'s format " + s.format().name() + " addresses (" + addressable
                    + " bytes); give at most that, or a target whose space " + name + " has a wider format");
        }
        spaces.put(name, Space.local(name, s.format()).alignment(s.alignment()).runtimeReserve(s.runtimeReserve())
                .capacity(capacity).build());
        return new Target(target.name(), target.formats(), spaces, target.generation());
    }

    /**
     * A shape signature with -1 marks a dimension chosen at run time. TFLM does not resize: it
     * plans every tensor with its stored shape. Berth does the same: an input of subgraph 0 whose
     * signature has -1 is planned at its stored shape, and {@code --input NAME=DIMS}, when given,
     * must state that shape (other sizes would need shape inference through every operator, which
     * Berth does not do for TFLite). An {@code --input} for another name is refused.
     *
     * @return the inputs whose signature has -1 and no {@code --input}, planned at their stored shape
     */
    private static List<TfliteModel.Tensor> checkInputs(TfliteModel m, Map<String, InputFix> fixes, String what) {
        TfliteModel.Subgraph main = m.subgraphs().get(0);
        Map<String, TfliteModel.Tensor> inputs = new LinkedHashMap<>();
        for (int i : main.inputs()) {
            TfliteModel.Tensor t = main.tensors().get(i);
            inputs.putIfAbsent(t.label(), t);
        }
        for (InputFix f : fixes.values()) {
            TfliteModel.Tensor t = inputs.get(f.name());
            if (t == null) {
                throw BerthException.invalid("--input", f.text(), "--input " + f.name() + ": the model's subgraph 0 has "
                        + "no input of that name; its inputs are " + String.join(", ", inputs.keySet()));
            }
            long[] want = Arrays.stream(t.shape()).asLongStream().toArray();
            int[] sig = t.shapeSignature().orElse(t.shape());
            boolean fits = f.numbers().length == sig.length;
            for (int d = 0; fits && d < sig.length; d++) {
                fits = sig[d] < 0 || sig[d] == f.numbers()[d];
            }
            if (!fits) {
                throw BerthException.invalid("--input", f.text(), "--input " + f.name() + ": " + dims(f.numbers())
                        + " does not match the input's shape signature " + Arrays.toString(sig));
            }
            if (!Arrays.equals(want, f.numbers())) {
                throw BerthException.invalid("--input", f.text(), "--input " + f.name() + ": TFLM plans with the shapes "
                        + "stored in the file, which are for " + f.name() + "=" + dims(want) + "; Berth does not infer "
                        + "TFLite shapes for other sizes (convert the model with the input size fixed)");
            }
        }
        List<TfliteModel.Tensor> stored = new ArrayList<>();
        for (Map.Entry<String, TfliteModel.Tensor> e : inputs.entrySet()) {
            Optional<int[]> sig = e.getValue().shapeSignature();
            if (sig.isPresent() && Arrays.stream(sig.get()).anyMatch(d -> d < 0) && !fixes.containsKey(e.getKey())) {
                stored.add(e.getValue());
            }
        }
        return stored;
    }

    /** {@code 1x3x224x224}: a shape as {@code --input} writes it. */
    public static String dims(int[] d) {
        return dims(Arrays.stream(d).asLongStream().toArray());
    }

    private static String dims(long[] d) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < d.length; i++) {
            sb.append(i == 0 ? "" : "x").append(d[i]);
        }
        return sb.toString();
    }
}
