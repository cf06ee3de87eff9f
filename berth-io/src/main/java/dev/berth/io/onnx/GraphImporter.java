package dev.berth.io.onnx;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.io.model.InputFix;
import dev.berth.io.onnx.ImportedGraph.Role;
import dev.berth.io.onnx.proto.Onnx.AttributeProto;
import dev.berth.io.onnx.proto.Onnx.GraphProto;
import dev.berth.io.onnx.proto.Onnx.ModelProto;
import dev.berth.io.onnx.proto.Onnx.NodeProto;
import dev.berth.io.onnx.proto.Onnx.OperatorSetIdProto;
import dev.berth.io.onnx.proto.Onnx.TensorProto;
import dev.berth.io.onnx.proto.Onnx.TensorShapeProto;
import dev.berth.io.onnx.proto.Onnx.TypeProto;
import dev.berth.io.onnx.proto.Onnx.ValueInfoProto;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Walks a model's main graph in topological order, infers every tensor's type and shape, folds
 * constant chains and {@code If} nodes whose condition is known (inlining the branch taken), and
 * records the flat list of steps. Names keep their ONNX spelling; a name an inlined branch
 * defines again gets the branch's path as a prefix. Its tables are its working state, private to
 * one {@link #run}, which returns them as an immutable {@link ImportedGraph}.
 */
final class GraphImporter {

    /** Names visible in one graph, falling back to the enclosing graph's. */
    private static final class Scope {
        final Scope parent;
        final Map<String, String> names = new HashMap<>();

        Scope(Scope parent) {
            this.parent = parent;
        }

        Optional<String> resolve(String local) {
            for (Scope s = this; s != null; s = s.parent) {
                String f = s.names.get(local);
                if (f != null) {
                    return Optional.of(f);
                }
            }
            return Optional.empty();
        }
    }

    private final String what;
    private final int opset;
    private final Map<String, TensorInfo> tensors = new LinkedHashMap<>();
    private final Map<String, Role> roles = new HashMap<>();
    /** If outputs: flat name → the flat name of the branch tensor it is. */
    private final Map<String, String> aliases = new LinkedHashMap<>();
    private final Map<String, Integer> producer = new HashMap<>();
    private final List<ImportedModel.StepInfo> steps = new ArrayList<>();
    private final List<String> inputs = new ArrayList<>();
    private final List<String> outputs = new ArrayList<>();
    private final List<String> foldedIfs = new ArrayList<>();
    /** Every name the main graph defines: inlined branches never take them. */
    private final Set<String> mainNames = new HashSet<>();

    private GraphImporter(String what, int opset) {
        this.what = what;
        this.opset = opset;
    }

    /** Imports the main graph of {@code model} with the graph inputs fixed by {@code fixes}. */
    static ImportedGraph run(ModelProto model, String what, Map<String, InputFix> fixes) {
        GraphImporter g = new GraphImporter(what, defaultOpset(model, what));
        Scope main = new Scope(null);
        GraphProto graph = model.getGraph();
        for (TensorProto t : graph.getInitializerList()) {
            g.mainNames.add(t.getName());
        }
        for (ValueInfoProto vi : graph.getInputList()) {
            g.mainNames.add(vi.getName());
        }
        for (NodeProto n : graph.getNodeList()) {
            g.mainNames.addAll(n.getOutputList());
        }
        g.initializers(graph, main, "");
        g.graphInputs(graph, main, new LinkedHashMap<>(fixes));
        g.nodes(graph, main, "");
        for (ValueInfoProto o : graph.getOutputList()) {
            String flat = main.resolve(o.getName()).orElseThrow(() -> Require.invalid(what, "graph output '"
                    + o.getName() + "' is not produced by any node, nor a graph input or initializer"));
            g.outputs.add(flat);
        }
        return new ImportedGraph(g.opset, g.tensors, g.roles, g.aliases, g.producer, g.steps, g.outputs, g.foldedIfs);
    }

    private static int defaultOpset(ModelProto model, String what) {
        long v = -1;
        for (OperatorSetIdProto o : model.getOpsetImportList()) {
            if (o.getDomain().isEmpty() || o.getDomain().equals("ai.onnx")) {
                v = Math.max(v, o.getVersion());
            }
        }
        if (v < 1 || v > Integer.MAX_VALUE) {
            throw Require.invalid(what, "the model imports no opset of the default ONNX domain "
                    + "(opset_import has no entry for \"\" or \"ai.onnx\")");
        }
        return (int) v;
    }

    /** The flat name a tensor finally is (If outputs resolve to their branch's tensor). */
    private String root(String flat) {
        return ImportedGraph.root(aliases, flat);
    }

    private String define(Scope scope, String local, String prefix, String by) {
        if (scope.names.containsKey(local)) {
            throw Require.invalid(what, "tensor '" + local + "' is defined twice in the same graph (again by "
                    + by + ")");
        }
        // a name an inlined branch defines keeps its spelling unless the main graph or an
        // earlier branch has it; then the branch's path goes in front
        String flat = local;
        if (taken(flat) || (!prefix.isEmpty() && mainNames.contains(local))) {
            flat = prefix + local;
            for (int k = 2; taken(flat); k++) {
                flat = prefix + local + "#" + k;
            }
        }
        scope.names.put(local, flat);
        return flat;
    }

    private boolean taken(String flat) {
        return tensors.containsKey(flat) || aliases.containsKey(flat);
    }

    private void initializers(GraphProto g, Scope scope, String prefix) {
        if (g.getSparseInitializerCount() > 0) {
            throw Require.invalid(what, "graph '" + g.getName() + "' has sparse initializers, which Berth "
                    + "does not read");
        }
        for (TensorProto t : g.getInitializerList()) {
            String flat = define(scope, t.getName(), prefix, "an initializer");
            tensors.put(flat, TensorData.info(t, flat, what + ": initializer '" + t.getName() + "'"));
            roles.put(flat, Role.WEIGHT);
        }
    }

    private void graphInputs(GraphProto g, Scope scope, Map<String, InputFix> fixes) {
        Set<String> initNames = new HashSet<>();
        for (TensorProto t : g.getInitializerList()) {
            initNames.add(t.getName());
        }
        List<ValueInfoProto> real = new ArrayList<>();
        for (ValueInfoProto vi : g.getInputList()) {
            if (!initNames.contains(vi.getName())) {
                real.add(vi);
            }
        }
        Map<String, Long> symbols = new LinkedHashMap<>();
        Map<String, String> symbolSource = new HashMap<>();
        Map<String, TensorInfo> resolved = new LinkedHashMap<>();
        // inputs the caller fixed come first: they bind the symbolic dimensions the others share
        for (ValueInfoProto vi : real) {
            InputFix fix = fixes.remove(vi.getName());
            if (fix != null) {
                resolved.put(vi.getName(), fixed(vi, fix, symbols, symbolSource));
            }
        }
        if (!fixes.isEmpty()) {
            InputFix f = fixes.values().iterator().next();
            List<String> names = real.stream().map(ValueInfoProto::getName).toList();
            throw BerthException.invalid("--input", f.text(), "--input " + f.name() + ": the model has no input named '"
                    + f.name() + "' (its inputs: " + String.join(", ", names) + ")");
        }
        Set<String> fixedNames = new HashSet<>(resolved.keySet());
        List<ValueInfoProto> unknown = new ArrayList<>();
        for (ValueInfoProto vi : real) {
            if (!resolved.containsKey(vi.getName())) {
                Optional<TensorInfo> d = declared(vi, symbols);
                if (d.isPresent()) {
                    resolved.put(vi.getName(), d.get());
                } else {
                    unknown.add(vi);
                }
            }
        }
        if (!unknown.isEmpty()) {
            throw missingInputs(g, real, fixedNames, unknown, symbols);
        }
        for (ValueInfoProto vi : real) {
            String flat = define(scope, vi.getName(), "", "a graph input");
            tensors.put(flat, resolved.get(vi.getName()).renamed(flat));
            roles.put(flat, Role.INPUT);
            inputs.add(flat);
        }
    }

    private TypeProto.Tensor tensorType(ValueInfoProto vi) {
        if (!vi.hasType() || !vi.getType().hasTensorType()) {
            throw Require.invalid(what, "graph input '" + vi.getName() + "' is not a tensor (sequences, "
                    + "maps and optionals are not supported)");
        }
        return vi.getType().getTensorType();
    }

    private static String declaredShape(TypeProto.Tensor t) {
        if (!t.hasShape()) {
            return "of unknown rank";
        }
        List<String> d = new ArrayList<>();
        for (TensorShapeProto.Dimension dim : t.getShape().getDimList()) {
            d.add(dim.hasDimValue() ? Long.toString(dim.getDimValue()) : dim.hasDimParam() ? dim.getDimParam() : "?");
        }
        return "[" + String.join(", ", d) + "]";
    }

    private TensorInfo fixed(ValueInfoProto vi, InputFix fix, Map<String, Long> symbols, Map<String, String> source) {
        TypeProto.Tensor t = tensorType(vi);
        ElementType type = ElementType.of(t.getElemType(), what + ": graph input '" + vi.getName() + "'");
        String name = vi.getName();
        if (t.hasShape() && t.getShape().getDimCount() == 0) {
            // a scalar input: the option gives its value
            if (!fix.single()) {
                throw BerthException.invalid("--input", fix.text(), "--input " + name + ": '" + name + "' is a scalar "
                        + type + " input; give its value (e.g. " + name + "=16000), not a shape");
            }
            if (type.kind() != ElementType.Kind.INTEGER || !Fold.fits(type, fix.numbers()[0])) {
                throw BerthException.invalid("--input", fix.text(), "--input " + name + ": " + fix.numbers()[0]
                        + " is not a value of '" + name + "', a scalar " + type
                        + (type.kind() == ElementType.Kind.INTEGER ? "" : " (only integer and bool values can be fixed)"));
            }
            return TensorInfo.of(name, type, Shape.SCALAR, Optional.of(Values.ofInts(fix.numbers()[0])));
        }
        long[] dims = fix.numbers();
        for (long d : dims) {
            if (d < 0) {
                throw BerthException.invalid("--input", fix.text(), "--input " + name + ": dimension " + d + " is negative");
            }
        }
        if (t.hasShape()) {
            List<TensorShapeProto.Dimension> decl = t.getShape().getDimList();
            if (decl.size() != dims.length) {
                throw BerthException.invalid("--input", fix.text(), "--input " + name + ": '" + name + "' has rank "
                        + decl.size() + " (declared shape " + declaredShape(t) + ") but " + dims.length
                        + " dimensions were given");
            }
            for (int i = 0; i < dims.length; i++) {
                TensorShapeProto.Dimension dim = decl.get(i);
                if (dim.hasDimValue() && dim.getDimValue() >= 0 && dim.getDimValue() != dims[i]) {
                    throw BerthException.invalid("--input", fix.text(), "--input " + name + ": dimension " + i + " of '"
                            + name + "' is fixed to " + dim.getDimValue() + " by the model (declared shape "
                            + declaredShape(t) + "), " + dims[i] + " was given");
                }
                if (dim.hasDimParam() && !dim.getDimParam().isEmpty()) {
                    Long prev = symbols.putIfAbsent(dim.getDimParam(), dims[i]);
                    if (prev != null && prev != dims[i]) {
                        throw BerthException.invalid("--input", fix.text(), "--input " + name + ": dimension '"
                                + dim.getDimParam() + "' is " + prev + " in " + source.get(dim.getDimParam()) + " but "
                                + dims[i] + " here");
                    }
                    source.putIfAbsent(dim.getDimParam(), "--input " + name);
                }
            }
        }
        return TensorInfo.of(name, type, Shape.of(dims));
    }

    /** The input's declared shape with the bound symbols put in, or empty when a dimension (or the rank) is unknown. */
    private Optional<TensorInfo> declared(ValueInfoProto vi, Map<String, Long> symbols) {
        TypeProto.Tensor t = tensorType(vi);
        ElementType type = ElementType.of(t.getElemType(), what + ": graph input '" + vi.getName() + "'");
        if (!t.hasShape()) {
            return Optional.empty();
        }
        List<TensorShapeProto.Dimension> decl = t.getShape().getDimList();
        long[] dims = new long[decl.size()];
        for (int i = 0; i < dims.length; i++) {
            TensorShapeProto.Dimension dim = decl.get(i);
            if (dim.hasDimValue() && dim.getDimValue() >= 0) {
                dims[i] = dim.getDimValue();
            } else if (dim.hasDimParam() && symbols.containsKey(dim.getDimParam())) {
                dims[i] = symbols.get(dim.getDimParam());
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(TensorInfo.of(vi.getName(), type, Shape.of(dims)));
    }

    /** The symbolic dimension {@code dim} names, or empty for a fixed one or one with no name. */
    private static Optional<String> symbol(TensorShapeProto.Dimension dim) {
        return dim.hasDimValue() && dim.getDimValue() >= 0 || !dim.hasDimParam() || dim.getDimParam().isEmpty()
                ? Optional.empty() : Optional.of(dim.getDimParam());
    }

    /** Whether {@code dim} has a size: a value, or a symbol in {@code bound}. */
    private static boolean sized(TensorShapeProto.Dimension dim, Set<String> bound) {
        return dim.hasDimValue() && dim.getDimValue() >= 0 || symbol(dim).map(bound::contains).orElse(false);
    }

    /**
     * {@code invalid-input} at {@code --input} listing, at once, every graph input still to fix:
     * those whose shape is not known, each with the form of its {@code --input} (its rank, the
     * fixed sizes, {@code N} for each size to give), but those whose symbolic dimensions an earlier
     * one listed also fixes; and, when the graph has If nodes, the scalar integer inputs without a
     * value, on which a condition may depend.
     */
    private BerthException missingInputs(GraphProto g, List<ValueInfoProto> real, Set<String> fixed,
                                         List<ValueInfoProto> unknown, Map<String, Long> symbols) {
        Set<String> bound = new HashSet<>(symbols.keySet());
        Map<String, List<String>> alsoFixes = new LinkedHashMap<>();
        Map<String, String> boundBy = new HashMap<>();
        Map<String, String> parts = new LinkedHashMap<>();
        for (ValueInfoProto vi : unknown) {
            String name = vi.getName();
            TypeProto.Tensor t = tensorType(vi);
            if (!t.hasShape()) {
                parts.put(name, "graph input '" + name + "' has no declared shape; fix it with --input " + name
                        + "=DIMS (its rank is not declared)");
                alsoFixes.put(name, new ArrayList<>());
                continue;
            }
            List<TensorShapeProto.Dimension> decl = t.getShape().getDimList();
            if (decl.stream().allMatch(d -> sized(d, bound))) {
                // every size it lacks is a symbol of an input listed before: giving that one fixes this one
                String by = decl.stream().map(GraphImporter::symbol).flatMap(Optional::stream)
                        .filter(boundBy::containsKey).map(boundBy::get).findFirst().orElseThrow();
                alsoFixes.get(by).add(name);
                continue;
            }
            List<String> open = new ArrayList<>();
            List<String> form = new ArrayList<>();
            for (int i = 0; i < decl.size(); i++) {
                TensorShapeProto.Dimension dim = decl.get(i);
                if (dim.hasDimValue() && dim.getDimValue() >= 0) {
                    form.add(Long.toString(dim.getDimValue()));
                } else if (symbol(dim).isPresent() && symbols.containsKey(symbol(dim).get())) {
                    form.add(Long.toString(symbols.get(symbol(dim).get())));
                } else {
                    form.add("N");
                    String s = symbol(dim).orElse(null);
                    open.add(s == null ? "an unknown dimension " + i : "'" + s + "'");
                    if (s != null) {
                        boundBy.putIfAbsent(s, name);
                        bound.add(s);
                    }
                }
            }
            boolean symbolic = open.stream().allMatch(o -> o.startsWith("'"));
            parts.put(name, "graph input '" + name + "' has shape " + declaredShape(t) + " with "
                    + (symbolic ? "symbolic dimension" + (open.size() == 1 ? " " : "s ") : "") + String.join(", ", open)
                    + "; fix it with --input " + name + "=" + String.join("x", form) + " (rank " + decl.size()
                    + ": a size for each N)");
            alsoFixes.put(name, new ArrayList<>());
        }
        List<String> all = new ArrayList<>();
        for (Map.Entry<String, String> e : parts.entrySet()) {
            List<String> also = alsoFixes.get(e.getKey());
            all.add(e.getValue() + (also.isEmpty() ? "" : ", which also fixes " + String.join(", ", also.stream()
                    .map(a -> "'" + a + "'").toList())));
        }
        boolean ifs = g.getNodeList().stream().anyMatch(n -> n.getOpType().equals("If"));
        for (ValueInfoProto vi : real) {
            TypeProto.Tensor t = tensorType(vi);
            if (ifs && !fixed.contains(vi.getName()) && t.hasShape() && t.getShape().getDimCount() == 0) {
                ElementType type = ElementType.of(t.getElemType(), what + ": graph input '" + vi.getName() + "'");
                if (type.kind() == ElementType.Kind.INTEGER) {
                    all.add("scalar " + type + " input '" + vi.getName() + "' has no value, and an If of the model may "
                            + "depend on it: give it with --input " + vi.getName() + "=VALUE");
                }
            }
        }
        return BerthException.invalid("--input", what + ": " + (all.size() == 1 ? all.get(0)
                : all.size() + " graph inputs to fix, all at once: " + String.join("; ", all)));
    }

    private static String display(NodeProto n, int index) {
        return n.getName().isEmpty() ? n.getOpType() + "#" + index : n.getName();
    }

    private static String label(NodeProto n, String path, int index) {
        String dom = n.getDomain().isEmpty() || n.getDomain().equals("ai.onnx") ? "" : n.getDomain() + ".";
        return "node '" + path + display(n, index) + "' (" + dom + n.getOpType() + ")";
    }

    /** Imports a graph's nodes in topological order into the flat step list. */
    private void nodes(GraphProto g, Scope scope, String path) {
        for (int i : topological(g, scope, path)) {
            node(g.getNode(i), i, scope, path);
        }
    }

    private void node(NodeProto n, int index, Scope scope, String path) {
        String label = label(n, path, index);
        if (!(n.getDomain().isEmpty() || n.getDomain().equals("ai.onnx"))) {
            throw BerthException.invalid(label, what + ": " + label + ": operators of domain '" + n.getDomain()
                    + "' are not supported (only the default ONNX domain)");
        }
        String op = n.getOpType();
        if (op.equals("If")) {
            inlineIf(n, index, label, scope, path);
            return;
        }
        if (op.equals("Loop") || op.equals("Scan")) {
            throw BerthException.invalid(label, what + ": " + label + ": control flow '" + op + "' is not supported "
                    + "(If is folded when its condition is known)");
        }
        List<Optional<TensorInfo>> ins = new ArrayList<>();
        List<String> inNames = new ArrayList<>();
        for (int i = 0; i < n.getInputCount(); i++) {
            String local = n.getInput(i);
            if (local.isEmpty()) {
                ins.add(Optional.empty());
                inNames.add("");
                continue;
            }
            String flat = scope.resolve(local).orElseThrow(() -> missing(label, local));
            String r = root(flat);
            ins.add(Optional.of(tensors.get(r)));
            inNames.add(flat);
        }
        Node node = new Node(n, what + ": " + label, ins, opset);
        List<Inferred> out;
        Role role = Role.ACTIVATION;
        if (op.equals("Constant")) {
            out = null;
            role = Role.WEIGHT;
        } else {
            OpRule rule = Ops.rule(op).orElseThrow(() -> BerthException.invalid(label, what + ": " + label
                    + ": unsupported operator '" + op + "'; Berth infers shapes for: " + String.join(", ", Ops.supported())));
            out = rule.infer(node);
        }
        int step = steps.size();
        List<String> outNames = new ArrayList<>();
        for (int k = 0; k < n.getOutputCount(); k++) {
            String local = n.getOutput(k);
            if (local.isEmpty()) {
                outNames.add("");
                continue;
            }
            String flat = define(scope, local, path, label);
            TensorInfo info;
            if (out == null) {
                if (k > 0) {
                    throw node.fail("a Constant has one output, this one has " + n.getOutputCount());
                }
                info = constant(node, flat);
            } else {
                if (k >= out.size()) {
                    throw node.fail("has output " + k + " '" + local + "' but " + op + " defines only " + out.size()
                            + " output" + (out.size() == 1 ? "" : "s"));
                }
                Inferred o = out.get(k);
                info = TensorInfo.of(flat, o.type(), o.shape(), o.values());
            }
            tensors.put(flat, info);
            roles.put(flat, role);
            producer.put(flat, step);
            outNames.add(flat);
        }
        steps.add(new ImportedModel.StepInfo(step, path + display(n, index), op, inNames, outNames));
    }

    private BerthException missing(String label, String local) {
        return BerthException.invalid(label, what + ": " + label + ": input '" + local + "' is not produced by any node, "
                + "nor a graph input or initializer");
    }

    /** The value of a Constant node, as a weight. */
    private TensorInfo constant(Node n, String flat) {
        List<String> attrs = n.attrNames();
        if (attrs.size() != 1) {
            throw n.fail("a Constant needs exactly one value attribute, it has " + attrs);
        }
        String a = attrs.get(0);
        return switch (a) {
            case "value" -> TensorData.info(n.attrTensor("value").get(), flat, n.label() + " attribute 'value'");
            case "value_float" -> TensorInfo.of(flat, ElementType.FLOAT, Shape.SCALAR,
                    Optional.of(Values.ofReals(n.attrFloat(a).get())));
            case "value_floats" -> {
                float[] f = n.attrFloats(a).get();
                double[] d = new double[f.length];
                for (int i = 0; i < f.length; i++) {
                    d[i] = f[i];
                }
                yield TensorInfo.of(flat, ElementType.FLOAT, Shape.of(f.length), Optional.of(Values.ofReals(d)));
            }
            case "value_int" -> TensorInfo.of(flat, ElementType.INT64, Shape.SCALAR,
                    Optional.of(Values.ofInts(n.attrInt(a).getAsLong())));
            case "value_ints" -> {
                long[] v = n.attrInts(a).get();
                yield TensorInfo.of(flat, ElementType.INT64, Shape.of(v.length), Optional.of(Values.ofInts(v)));
            }
            default -> throw n.fail("Constant attribute '" + a + "' is not supported (value, value_float(s), value_int(s))");
        };
    }

    /** Replaces an If whose condition is known by the nodes of the branch it takes. */
    private void inlineIf(NodeProto n, int index, String label, Scope scope, String path) {
        if (n.getInputCount() < 1 || n.getInput(0).isEmpty()) {
            throw BerthException.invalid(label, what + ": " + label + ": needs a condition (input 0)");
        }
        String condFlat = root(scope.resolve(n.getInput(0)).orElseThrow(() -> missing(label, n.getInput(0))));
        TensorInfo cond = tensors.get(condFlat);
        Node node = new Node(n, what + ": " + label, List.of(Optional.of(cond)), opset);
        Values v = cond.values().orElseThrow(() -> node.fail("the condition '" + cond.name() + "' is not known when "
                + "importing, so Berth cannot tell which branch runs; it folds an If only when its condition is a "
                + "constant: fix the scalar inputs it depends on with --input NAME=VALUE"
                + scalarInputsHint()));
        if (v.size() != 1) {
            throw node.fail("the condition '" + cond.name() + "' " + cond.shape() + " must hold one element");
        }
        boolean taken = v.doubleAt(0) != 0;
        String branchName = taken ? "then_branch" : "else_branch";
        GraphProto branch = node.attrGraph(branchName).orElseThrow(() -> node.fail("has no attribute '" + branchName + "'"));
        if (branch.getOutputCount() != n.getOutputCount()) {
            throw node.fail(branchName + " has " + branch.getOutputCount() + " outputs but the If has " + n.getOutputCount());
        }
        if (branch.getInputCount() > 0) {
            throw node.fail(branchName + " declares inputs; an If branch takes none");
        }
        // listed before the branch, so that an outer If comes before the Ifs nested in it
        foldedIfs.add(path + display(n, index) + ": condition '" + cond.name() + "' is " + taken + ", took " + branchName
                + " (" + branch.getNodeCount() + " nodes)");
        Scope inner = new Scope(scope);
        String innerPath = path + display(n, index) + "/" + branchName + "/";
        initializers(branch, inner, innerPath);
        nodes(branch, inner, innerPath);
        for (int k = 0; k < n.getOutputCount(); k++) {
            String local = n.getOutput(k);
            String result = branch.getOutput(k).getName();
            String target = inner.resolve(result).orElseThrow(() -> node.fail(branchName + " output '" + result
                    + "' is not produced by any node of the branch, nor defined outside it"));
            if (local.isEmpty()) {
                continue;
            }
            String flat = define(scope, local, path, label);
            aliases.put(flat, target);
        }
    }

    private String scalarInputsHint() {
        List<String> scalars = new ArrayList<>();
        for (String in : inputs) {
            if (tensors.get(in).shape().rank() == 0 && tensors.get(in).values().isEmpty()) {
                scalars.add(in);
            }
        }
        return scalars.isEmpty() ? "" : " (scalar inputs without a value: " + String.join(", ", scalars) + ")";
    }

    /**
     * The graph's nodes in an order where every node follows the nodes it reads from; among
     * ready nodes the earliest in the file goes first, so a sorted file keeps its order. A
     * missing input or a cycle is {@code invalid-input} naming the nodes.
     */
    private List<Integer> topological(GraphProto g, Scope scope, String path) {
        List<NodeProto> nodes = g.getNodeList();
        int n = nodes.size();
        Map<String, Integer> producedBy = new HashMap<>();
        for (int i = 0; i < n; i++) {
            for (String o : nodes.get(i).getOutputList()) {
                if (o.isEmpty()) {
                    continue;
                }
                Integer prev = producedBy.put(o, i);
                if (prev != null) {
                    throw BerthException.invalid(label(nodes.get(i), path, i), what + ": tensor '" + o + "' is produced by "
                            + label(nodes.get(prev), path, prev) + " and again by " + label(nodes.get(i), path, i));
                }
            }
        }
        Set<String> local = new HashSet<>();
        for (TensorProto t : g.getInitializerList()) {
            local.add(t.getName());
        }
        for (ValueInfoProto vi : g.getInputList()) {
            local.add(vi.getName());
        }
        List<Set<Integer>> deps = new ArrayList<>();
        int[] waiting = new int[n];
        List<List<Integer>> users = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            users.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            NodeProto node = nodes.get(i);
            Set<String> reads = new HashSet<>();
            for (String in : node.getInputList()) {
                if (!in.isEmpty()) {
                    reads.add(in);
                }
            }
            for (AttributeProto a : node.getAttributeList()) {
                if (a.hasG()) {
                    reads.addAll(freeNames(a.getG()));
                }
                for (GraphProto sg : a.getGraphsList()) {
                    reads.addAll(freeNames(sg));
                }
            }
            Set<Integer> d = new HashSet<>();
            for (String in : node.getInputList()) {
                if (!in.isEmpty() && !producedBy.containsKey(in) && !local.contains(in) && scope.resolve(in).isEmpty()) {
                    throw missing(label(node, path, i), in);
                }
            }
            for (String r : reads) {
                Integer p = producedBy.get(r);
                if (p != null && !local.contains(r)) {
                    d.add(p);
                }
            }
            deps.add(d);
            waiting[i] = d.size();
            for (int p : d) {
                users.get(p).add(i);
            }
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int i = 0; i < n; i++) {
            if (waiting[i] == 0) {
                ready.add(i);
            }
        }
        List<Integer> order = new ArrayList<>(n);
        boolean[] done = new boolean[n];
        while (!ready.isEmpty()) {
            int i = ready.poll();
            order.add(i);
            done[i] = true;
            for (int u : users.get(i)) {
                if (--waiting[u] == 0) {
                    ready.add(u);
                }
            }
        }
        if (order.size() < n) {
            throw cycle(nodes, deps, done, path);
        }
        return order;
    }

    private BerthException cycle(List<NodeProto> nodes, List<Set<Integer>> deps, boolean[] done, String path) {
        int start = 0;
        while (done[start]) {
            start++;
        }
        // walk back along unfinished dependencies until a node repeats: that stretch is a cycle
        List<Integer> walk = new ArrayList<>();
        Map<Integer, Integer> seenAt = new HashMap<>();
        int cur = start;
        while (!seenAt.containsKey(cur)) {
            seenAt.put(cur, walk.size());
            walk.add(cur);
            int next = -1;
            for (int d : deps.get(cur)) {
                if (!done[d] && (next < 0 || d < next)) {
                    next = d;
                }
            }
            cur = next;
        }
        List<Integer> loop = walk.subList(seenAt.get(cur), walk.size());
        List<String> names = new ArrayList<>();
        for (int k = loop.size() - 1; k >= 0; k--) {
            names.add(label(nodes.get(loop.get(k)), path, loop.get(k)));
        }
        names.add(names.get(0));
        return BerthException.invalid(names.get(0), what + ": the graph has a cycle: " + String.join(" -> ", names)
                + " (each node reads the output of the one before it)");
    }

    /** Names a subgraph reads from enclosing graphs (used but not defined inside it). */
    static Set<String> freeNames(GraphProto g) {
        Set<String> defined = new HashSet<>();
        for (TensorProto t : g.getInitializerList()) {
            defined.add(t.getName());
        }
        for (ValueInfoProto vi : g.getInputList()) {
            defined.add(vi.getName());
        }
        for (NodeProto n : g.getNodeList()) {
            defined.addAll(n.getOutputList());
        }
        Set<String> free = new HashSet<>();
        for (NodeProto n : g.getNodeList()) {
            for (String in : n.getInputList()) {
                if (!in.isEmpty() && !defined.contains(in)) {
                    free.add(in);
                }
            }
            for (AttributeProto a : n.getAttributeList()) {
                List<GraphProto> subs = new ArrayList<>(a.getGraphsList());
                if (a.hasG()) {
                    subs.add(a.getG());
                }
                for (GraphProto sg : subs) {
                    for (String f : freeNames(sg)) {
                        if (!defined.contains(f)) {
                            free.add(f);
                        }
                    }
                }
            }
        }
        for (ValueInfoProto o : g.getOutputList()) {
            if (!defined.contains(o.getName())) {
                free.add(o.getName());
            }
        }
        return free;
    }
}
