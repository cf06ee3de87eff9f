package dev.berth.io.onnx;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import dev.berth.io.onnx.proto.Onnx.AttributeProto;
import dev.berth.io.onnx.proto.Onnx.GraphProto;
import dev.berth.io.onnx.proto.Onnx.NodeProto;
import dev.berth.io.onnx.proto.Onnx.TensorProto;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One node as shape inference sees it: its resolved input tensors, its attributes with
 * defaults, the opset version it binds to, and messages that name it.
 */
final class Node {
    private final NodeProto proto;
    private final String label;
    private final List<Optional<TensorInfo>> inputs;
    private final int opset;

    /**
     * @param label  how messages name the node, e.g. {@code node 'Conv_12' (Conv)}
     * @param inputs the node's inputs in order, empty where the input slot is unused ("")
     * @param opset  the default-domain opset version the node binds to
     */
    public Node(NodeProto proto, String label, List<Optional<TensorInfo>> inputs, int opset) {
        this.proto = proto;
        this.label = label;
        this.inputs = List.copyOf(inputs);
        this.opset = opset;
    }

    public String op() {
        return proto.getOpType();
    }

    public int opset() {
        return opset;
    }

    public String label() {
        return label;
    }

    public int inputCount() {
        return inputs.size();
    }

    public int outputCount() {
        return proto.getOutputCount();
    }

    /** True when input slot {@code i} is used. */
    public boolean has(int i) {
        return i < inputs.size() && inputs.get(i).isPresent();
    }

    /** Input {@code i}, which the op requires. */
    public TensorInfo in(int i) {
        if (!has(i)) {
            throw fail("needs input " + i + " but " + (i < proto.getInputCount() ? "it is empty" : "the node has only "
                    + proto.getInputCount() + " input" + (proto.getInputCount() == 1 ? "" : "s")));
        }
        return inputs.get(i).get();
    }

    public Optional<TensorInfo> optIn(int i) {
        return has(i) ? inputs.get(i) : Optional.empty();
    }

    /**
     * The values of input {@code i}, which this op needs to know the output shape; when they are
     * not known the message names the input and what it is for.
     */
    public Values values(int i, String role) {
        TensorInfo t = in(i);
        return t.values().orElseThrow(() -> fail("the output shape depends on the values of input " + i + " '"
                + t.name() + "' (" + role + "), which are not known when importing: it is neither a constant nor "
                + "computable from constants and the input shapes"));
    }

    /** Input {@code i}'s values as whole numbers (shape, axes, pads, ...). */
    public long[] ints(int i, String role) {
        Values v = values(i, role);
        if (!v.integral()) {
            throw fail("input " + i + " '" + in(i).name() + "' (" + role + ") must hold integers, but it is "
                    + in(i).type());
        }
        return v.longs();
    }

    private Optional<AttributeProto> attr(String name) {
        for (AttributeProto a : proto.getAttributeList()) {
            if (a.getName().equals(name)) {
                if (!a.getRefAttrName().isEmpty()) {
                    throw fail("attribute '" + name + "' refers to a function attribute; functions are not supported");
                }
                return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    public boolean hasAttr(String name) {
        return attr(name).isPresent();
    }

    public OptionalLong attrInt(String name) {
        Optional<AttributeProto> a = attr(name);
        if (a.isEmpty()) {
            return OptionalLong.empty();
        }
        expect(a.get(), AttributeProto.AttributeType.INT, a.get().hasI());
        return OptionalLong.of(a.get().getI());
    }

    public long attrInt(String name, long dflt) {
        return attrInt(name).orElse(dflt);
    }

    public Optional<long[]> attrInts(String name) {
        Optional<AttributeProto> a = attr(name);
        if (a.isEmpty()) {
            return Optional.empty();
        }
        expect(a.get(), AttributeProto.AttributeType.INTS, true);
        long[] v = new long[a.get().getIntsCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.get().getInts(i);
        }
        return Optional.of(v);
    }

    public Optional<Float> attrFloat(String name) {
        Optional<AttributeProto> a = attr(name);
        if (a.isEmpty()) {
            return Optional.empty();
        }
        expect(a.get(), AttributeProto.AttributeType.FLOAT, a.get().hasF());
        return Optional.of(a.get().getF());
    }

    public Optional<float[]> attrFloats(String name) {
        Optional<AttributeProto> a = attr(name);
        if (a.isEmpty()) {
            return Optional.empty();
        }
        expect(a.get(), AttributeProto.AttributeType.FLOATS, true);
        float[] v = new float[a.get().getFloatsCount()];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.get().getFloats(i);
        }
        return Optional.of(v);
    }

    public Optional<String> attrString(String name) {
        Optional<AttributeProto> a = attr(name);
        if (a.isEmpty()) {
            return Optional.empty();
        }
        expect(a.get(), AttributeProto.AttributeType.STRING, a.get().hasS());
        return Optional.of(a.get().getS().toString(StandardCharsets.UTF_8));
    }

    public String attrString(String name, String dflt) {
        return attrString(name).orElse(dflt);
    }

    public Optional<TensorProto> attrTensor(String name) {
        Optional<AttributeProto> a = attr(name);
        if (a.isEmpty()) {
            return Optional.empty();
        }
        expect(a.get(), AttributeProto.AttributeType.TENSOR, a.get().hasT());
        return Optional.of(a.get().getT());
    }

    public Optional<GraphProto> attrGraph(String name) {
        Optional<AttributeProto> a = attr(name);
        if (a.isEmpty()) {
            return Optional.empty();
        }
        expect(a.get(), AttributeProto.AttributeType.GRAPH, a.get().hasG());
        return Optional.of(a.get().getG());
    }

    /** The names of the attributes the node carries. */
    public List<String> attrNames() {
        return proto.getAttributeList().stream().map(AttributeProto::getName).toList();
    }

    private void expect(AttributeProto a, AttributeProto.AttributeType type, boolean present) {
        boolean typed = a.hasType() && a.getType() != AttributeProto.AttributeType.UNDEFINED;
        if (typed ? a.getType() != type : !present && !isList(type)) {
            throw fail("attribute '" + a.getName() + "' should be " + type + " but is "
                    + (typed ? a.getType() : "untyped and empty"));
        }
    }

    private static boolean isList(AttributeProto.AttributeType t) {
        return t == AttributeProto.AttributeType.INTS || t == AttributeProto.AttributeType.FLOATS;
    }

    /**
     * Normalizes axis {@code axis} of a tensor of rank {@code rank}: negative axes count from the
     * end; anything outside {@code [-rank, rank-1]} is {@code invalid-input}.
     */
    public int axis(long axis, int rank, String what) {
        if (axis < -rank || axis >= rank) {
            throw fail(what + " " + axis + " is outside [" + (-rank) + ", " + (rank - 1) + "] for rank " + rank);
        }
        return (int) (axis < 0 ? axis + rank : axis);
    }

    /** {@code invalid-input} naming this node. */
    public BerthException fail(String message) {
        return Require.invalid(label, message);
    }
}
