package dev.berth.io.onnx;

import com.google.protobuf.ByteString;
import dev.berth.io.TargetJson;
import dev.berth.io.onnx.proto.Onnx.AttributeProto;
import dev.berth.io.onnx.proto.Onnx.GraphProto;
import dev.berth.io.onnx.proto.Onnx.ModelProto;
import dev.berth.io.onnx.proto.Onnx.NodeProto;
import dev.berth.io.onnx.proto.Onnx.OperatorSetIdProto;
import dev.berth.io.onnx.proto.Onnx.TensorProto;
import dev.berth.io.onnx.proto.Onnx.TensorShapeProto;
import dev.berth.io.onnx.proto.Onnx.TypeProto;
import dev.berth.io.onnx.proto.Onnx.ValueInfoProto;
import dev.berth.target.Target;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds small ONNX models in tests with the generated protobuf classes. */
final class TestModel {
    private static final Target NPU_REF = TargetJson.load("npu-ref");
    private final GraphProto.Builder graph = GraphProto.newBuilder().setName("test");
    private final int opset;

    private TestModel(int opset) {
        this.opset = opset;
    }

    static TestModel opset(int opset) {
        return new TestModel(opset);
    }

    /** A graph input; each dim is a Long/Integer (fixed) or a String (symbolic). */
    TestModel input(String name, ElementType type, Object... dims) {
        graph.addInput(valueInfo(name, type, dims));
        return this;
    }

    /** A graph input whose type declares no shape (not even a rank). */
    TestModel inputOfNoShape(String name, ElementType type) {
        graph.addInput(ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(type.code()))));
        return this;
    }

    TestModel output(String name) {
        graph.addOutput(ValueInfoProto.newBuilder().setName(name));
        return this;
    }

    /** An int64 initializer with values. */
    TestModel ints(String name, long... values) {
        graph.addInitializer(intTensor(name, new long[]{values.length}, values));
        return this;
    }

    /** An int64 scalar initializer. */
    TestModel scalar(String name, long value) {
        graph.addInitializer(intTensor(name, new long[0], value));
        return this;
    }

    /** A float initializer of zeros in raw_data. */
    TestModel weight(String name, long... dims) {
        graph.addInitializer(floatTensor(name, dims));
        return this;
    }

    /** A float32 initializer with these values. */
    TestModel floats(String name, float... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : values) {
            b.putFloat(f);
        }
        graph.addInitializer(TensorProto.newBuilder().setName(name).setDataType(ElementType.FLOAT.code())
                .addDims(values.length).setRawData(ByteString.copyFrom(b.array())));
        return this;
    }

    TestModel initializer(TensorProto t) {
        graph.addInitializer(t);
        return this;
    }

    TestModel node(String op, List<String> inputs, List<String> outputs, AttributeProto... attrs) {
        return node(op, op + "_" + graph.getNodeCount(), inputs, outputs, attrs);
    }

    TestModel node(String op, String name, List<String> inputs, List<String> outputs, AttributeProto... attrs) {
        graph.addNode(NodeProto.newBuilder().setOpType(op).setName(name).addAllInput(inputs).addAllOutput(outputs)
                .addAllAttribute(List.of(attrs)));
        return this;
    }

    GraphProto graph() {
        return graph.build();
    }

    ModelProto model() {
        return ModelProto.newBuilder().setIrVersion(8).setProducerName("berth-test").setGraph(graph)
                .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(opset)).build();
    }

    byte[] bytes() {
        return model().toByteArray();
    }

    /** Imports on npu-ref with these {@code --input} texts. */
    ImportedModel load(String... inputs) {
        return OnnxImport.read(bytes(), "test.onnx", NPU_REF, OnnxImport.Options.of(inputs));
    }

    /** The tensors of an import by name. */
    static Map<String, TensorRecord> byName(ImportedModel im) {
        Map<String, TensorRecord> m = new TreeMap<>();
        for (TensorRecord t : im.tensors()) {
            m.put(t.name(), t);
        }
        return m;
    }

    static List<String> in(String... names) {
        return List.of(names);
    }

    static List<String> out(String... names) {
        return List.of(names);
    }

    static ValueInfoProto valueInfo(String name, ElementType type, Object... dims) {
        TensorShapeProto.Builder s = TensorShapeProto.newBuilder();
        for (Object d : dims) {
            TensorShapeProto.Dimension.Builder db = TensorShapeProto.Dimension.newBuilder();
            if (d instanceof String p) {
                db.setDimParam(p);
            } else {
                db.setDimValue(((Number) d).longValue());
            }
            s.addDim(db);
        }
        return ValueInfoProto.newBuilder().setName(name).setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(type.code()).setShape(s))).build();
    }

    static TensorProto intTensor(String name, long[] dims, long... values) {
        TensorProto.Builder t = TensorProto.newBuilder().setName(name).setDataType(ElementType.INT64.code());
        for (long d : dims) {
            t.addDims(d);
        }
        for (long v : values) {
            t.addInt64Data(v);
        }
        return t.build();
    }

    static TensorProto floatTensor(String name, long... dims) {
        long n = 1;
        TensorProto.Builder t = TensorProto.newBuilder().setName(name).setDataType(ElementType.FLOAT.code());
        for (long d : dims) {
            t.addDims(d);
            n *= d;
        }
        return t.setRawData(ByteString.copyFrom(new byte[(int) (4 * n)])).build();
    }

    static AttributeProto attr(String name, long v) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INT).setI(v).build();
    }

    static AttributeProto attr(String name, float v) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.FLOAT).setF(v).build();
    }

    static AttributeProto attrs(String name, long... v) {
        AttributeProto.Builder a = AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INTS);
        for (long x : v) {
            a.addInts(x);
        }
        return a.build();
    }

    static AttributeProto floatsAttr(String name, float... v) {
        AttributeProto.Builder a = AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.FLOATS);
        for (float x : v) {
            a.addFloats(x);
        }
        return a.build();
    }

    static AttributeProto attr(String name, String v) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.STRING)
                .setS(ByteString.copyFrom(v, StandardCharsets.UTF_8)).build();
    }

    static AttributeProto attr(String name, TensorProto t) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.TENSOR).setT(t).build();
    }

    static AttributeProto attr(String name, GraphProto g) {
        return AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.GRAPH).setG(g).build();
    }
}
