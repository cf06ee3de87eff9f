package dev.berth.io.onnx;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model's main graph as {@link GraphImporter} flattened it, what {@link WorkloadBuilder} builds
 * the workload from; immutable (copies of the importer's tables, in the importer's order).
 *
 * @param opset     the default-domain opset the model imports
 * @param tensors   every flat tensor (initializers, graph inputs, node outputs) in definition order
 * @param roles     what each flat tensor is
 * @param aliases   If outputs: flat name to the flat name of the branch tensor it is, in definition order
 * @param producer  for each node output, the step that writes it
 * @param steps     the executed nodes in order, one step each; inputs and outputs are flat names, "" an unused slot
 * @param outputs   the graph's outputs, as flat names
 * @param foldedIfs one line per If folded
 */
record ImportedGraph(int opset, Map<String, TensorInfo> tensors, Map<String, Role> roles, Map<String, String> aliases,
                     Map<String, Integer> producer, List<ImportedModel.StepInfo> steps, List<String> outputs,
                     List<String> foldedIfs) {

    /** What a flat tensor is. */
    enum Role { INPUT, ACTIVATION, WEIGHT }

    ImportedGraph {
        tensors = Collections.unmodifiableMap(new LinkedHashMap<>(tensors));
        roles = Map.copyOf(roles);
        aliases = Collections.unmodifiableMap(new LinkedHashMap<>(aliases));
        producer = Map.copyOf(producer);
        steps = List.copyOf(steps);
        outputs = List.copyOf(outputs);
        foldedIfs = List.copyOf(foldedIfs);
    }

    /** The flat name a tensor finally is (If outputs resolve to their branch's tensor). */
    String root(String flat) {
        return root(aliases, flat);
    }

    /** The flat name {@code flat} finally is under {@code aliases} (If output to branch tensor, repeatedly). */
    static String root(Map<String, String> aliases, String flat) {
        String f = flat;
        for (int guard = 0; aliases.containsKey(f); guard++) {
            f = aliases.get(f);
            assert guard < 1_000_000;
        }
        return f;
    }
}
