package dev.berth.io.onnx;

import dev.berth.io.onnx.ImportedGraph.Role;
import dev.berth.target.Space;
import dev.berth.workload.BufferSpec;
import dev.berth.workload.Lifetime;
import dev.berth.workload.Workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * From an imported graph to a workload: one step per executed node; a tensor lives from its
 * producer's step (step 0 for graph inputs) to its last reader's step (the last step for graph
 * outputs); weights live over every step in the constant space.
 *
 * <p>Views: the output of Reshape, Flatten, Squeeze, Unsqueeze or Identity is the same bytes as
 * its input. When the input's last reader is the view itself (it dies there), the view gets no
 * buffer of its own: it joins its input's buffer, whose lifetime is extended to the view's last
 * reader. Chains of views join one buffer. A view whose input lives on, or is a weight, gets its
 * own buffer (a copy), since sharing would need copy-on-write.
 */
final class WorkloadBuilder {
    private WorkloadBuilder() {
    }

    static ImportedModel build(String name, ImportedGraph g, Space activationSpace, Space constantSpace) {
        int steps = Math.max(1, g.steps().size());
        int lastStep = steps - 1;
        Map<String, Integer> lastUse = new HashMap<>();
        for (ImportedModel.StepInfo s : g.steps()) {
            for (String in : s.inputs()) {
                if (!in.isEmpty()) {
                    lastUse.merge(g.root(in), s.index(), Math::max);
                }
            }
        }
        for (String out : g.outputs()) {
            lastUse.put(g.root(out), lastStep);
        }
        // each tensor's own lifetime
        Map<String, Lifetime> live = new LinkedHashMap<>();
        for (Map.Entry<String, TensorInfo> e : g.tensors().entrySet()) {
            String t = e.getKey();
            Role role = g.roles().get(t);
            if (role == Role.WEIGHT) {
                if (lastUse.containsKey(t)) {
                    live.put(t, new Lifetime(0, lastStep));
                }
                continue;
            }
            int first = role == Role.INPUT ? 0 : g.producer().get(t);
            live.put(t, new Lifetime(first, Math.max(first, lastUse.getOrDefault(t, first))));
        }
        // views join their input's buffer when the input dies at the view
        Map<String, String> bufferOf = new HashMap<>();
        List<String> shared = new ArrayList<>();
        for (ImportedModel.StepInfo s : g.steps()) {
            if (!Ops.VIEWS.contains(s.op()) || s.inputs().isEmpty() || s.inputs().get(0).isEmpty()
                    || s.outputs().isEmpty() || s.outputs().get(0).isEmpty()) {
                continue;
            }
            String in = g.root(s.inputs().get(0));
            String out = s.outputs().get(0);
            Role role = g.roles().get(in);
            boolean dies = lastUse.getOrDefault(in, -1) == s.index();
            if (role != Role.WEIGHT && dies && g.tensors().get(in).bytes() == g.tensors().get(out).bytes()) {
                String buf = bufferOf.getOrDefault(in, in);
                bufferOf.put(out, buf);
                shared.add(out + " -> " + buf + " (" + s.op() + " " + s.node() + ")");
            }
        }
        // buffers: one per tensor that does not join another's, lifetime = union of its members
        Map<String, Lifetime> bufferLive = new LinkedHashMap<>();
        for (Map.Entry<String, Lifetime> e : live.entrySet()) {
            String buf = bufferOf.getOrDefault(e.getKey(), e.getKey());
            bufferLive.merge(buf, e.getValue(), (a, b) -> new Lifetime(Math.min(a.first(), b.first()),
                    Math.max(a.last(), b.last())));
        }
        List<BufferSpec> inputs = new ArrayList<>();
        List<BufferSpec> acts = new ArrayList<>();
        List<BufferSpec> weights = new ArrayList<>();
        for (Map.Entry<String, Lifetime> e : bufferLive.entrySet()) {
            String t = e.getKey();
            Role role = g.roles().get(t);
            long bytes = g.tensors().get(t).bytes();
            BufferSpec b = new BufferSpec(t, bytes, role == Role.WEIGHT ? constantSpace : activationSpace, 1,
                    e.getValue(), Optional.empty());
            (role == Role.WEIGHT ? weights : role == Role.INPUT ? inputs : acts).add(b);
        }
        acts.sort(Comparator.comparingInt((BufferSpec b) -> b.live().first()));
        Map<String, Long> accesses = accesses(g, bufferOf, inputs, acts);
        List<BufferSpec> all = new ArrayList<>(inputs);
        all.addAll(acts);
        all.addAll(weights);
        List<TensorRecord> records = records(g, live, bufferOf);
        return new ImportedModel(name, new Workload(name, all, List.of()), activationSpace.name(), constantSpace.name(), records,
                g.steps(), g.outputs(), g.foldedIfs(), shared, g.opset(), accesses);
    }

    /**
     * The importer's estimate of each activation buffer's accesses: one write (by its producer,
     * or by the caller for a graph input), one read per node input that reads it (a view that
     * joined the buffer reads nothing: it is the same bytes), one more for a graph output (the
     * caller reads it).
     */
    private static Map<String, Long> accesses(ImportedGraph g, Map<String, String> bufferOf, List<BufferSpec> inputs,
                                              List<BufferSpec> acts) {
        Map<String, Long> n = new LinkedHashMap<>();
        for (BufferSpec b : inputs) {
            n.put(b.name(), 1L);
        }
        for (BufferSpec b : acts) {
            n.put(b.name(), 1L);
        }
        for (ImportedModel.StepInfo s : g.steps()) {
            boolean joinedView = Ops.VIEWS.contains(s.op()) && !s.outputs().isEmpty()
                    && bufferOf.containsKey(s.outputs().get(0));
            if (joinedView) {
                continue;
            }
            for (String in : s.inputs()) {
                if (!in.isEmpty()) {
                    String root = g.root(in);
                    n.computeIfPresent(bufferOf.getOrDefault(root, root), (k, v) -> v + 1);
                }
            }
        }
        for (String out : g.outputs()) {
            String root = g.root(out);
            n.computeIfPresent(bufferOf.getOrDefault(root, root), (k, v) -> v + 1);
        }
        return n;
    }

    private static List<TensorRecord> records(ImportedGraph g, Map<String, Lifetime> live, Map<String, String> bufferOf) {
        List<TensorRecord> out = new ArrayList<>();
        for (Map.Entry<String, TensorInfo> e : g.tensors().entrySet()) {
            String t = e.getKey();
            Lifetime l = live.get(t);
            if (l == null) {
                continue; // a weight nothing reads
            }
            TensorInfo info = e.getValue();
            TensorRecord.Kind kind = switch (g.roles().get(t)) {
                case INPUT -> TensorRecord.Kind.INPUT;
                case ACTIVATION -> TensorRecord.Kind.ACTIVATION;
                case WEIGHT -> TensorRecord.Kind.WEIGHT;
            };
            out.add(new TensorRecord(t, kind, info.type(), info.shape(), info.bytes(), l, bufferOf.getOrDefault(t, t),
                    Optional.empty()));
        }
        for (Map.Entry<String, String> e : g.aliases().entrySet()) {
            String target = g.root(e.getValue());
            TensorInfo info = g.tensors().get(target);
            Lifetime l = live.get(target);
            if (l == null) {
                continue;
            }
            out.add(new TensorRecord(e.getKey(), TensorRecord.Kind.IF_OUTPUT, info.type(), info.shape(), info.bytes(), l,
                    bufferOf.getOrDefault(target, target), Optional.of(e.getValue())));
        }
        return out;
    }
}
