package dev.berth.io.onnx;

import com.google.protobuf.ByteString;
import dev.berth.failure.Require;
import dev.berth.io.onnx.proto.Onnx.TensorProto;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * Stored tensors ({@code TensorProto}: initializers, {@code Constant} values): their type and
 * shape, a check that the stored data has the size the shape promises, and decoding of small
 * tensors' values. Decoding reads the data in place ({@code raw_data} stays a view of the file).
 */
final class TensorData {
    /** Tensors with more elements are never decoded: their values are not needed for shapes. */
    static final long DECODE_LIMIT = 1 << 16;

    private TensorData() {
    }

    /**
     * The tensor's info, named {@code name}; {@code where} names it in messages. Checks that
     * the stored data matches its dims and type, and decodes values lazily.
     */
    static TensorInfo info(TensorProto t, String name, String where) {
        if (!t.hasDataType() || t.getDataType() == 0) {
            throw Require.invalid(where, "tensor '" + name + "' has no element type (data_type)");
        }
        ElementType type = ElementType.of(t.getDataType(), where);
        long[] dims = new long[t.getDimsCount()];
        for (int i = 0; i < dims.length; i++) {
            dims[i] = t.getDims(i);
            if (dims[i] < 0) {
                throw Require.invalid(where, "tensor '" + name + "' has a negative dimension "
                        + dims[i] + " in dims " + t.getDimsList());
            }
        }
        Shape shape = Shape.of(dims);
        long elements = shape.elements();
        boolean external = t.getDataLocation() == TensorProto.DataLocation.EXTERNAL || t.getExternalDataCount() > 0;
        if (t.hasSegment()) {
            throw Require.invalid(where, "tensor '" + name + "' is stored in segments, "
                    + "which Berth does not read");
        }
        if (!external && type != ElementType.STRING) {
            long stored = storedElements(t, type, elements, where, name);
            if (stored != elements) {
                throw Require.invalid(where, "tensor '" + name + "' of shape " + shape + " and type "
                        + type + " should hold " + elements + " elements but its data holds " + stored
                        + " (the file is corrupt)");
            }
        }
        if (external || type.kind() == ElementType.Kind.OTHER || elements > DECODE_LIMIT) {
            return TensorInfo.of(name, type, shape, Optional.empty());
        }
        return TensorInfo.lazy(name, type, shape, () -> Optional.of(decode(t, type, (int) elements, where, name)));
    }

    /** The number of elements the stored data holds. */
    private static long storedElements(TensorProto t, ElementType type, long elements, String where, String name) {
        if (t.hasRawData()) {
            long bytes = t.getRawData().size();
            long expected = type.bytes(elements, name);
            if (bytes != expected) {
                throw Require.invalid(where, "tensor '" + name + "' of " + elements + " " + type
                        + " elements should have " + expected + " bytes of raw_data but has " + bytes
                        + " (the file is corrupt)");
            }
            return elements;
        }
        long typed = t.getFloatDataCount() + (long) t.getInt32DataCount() + t.getInt64DataCount()
                + t.getDoubleDataCount() + t.getUint64DataCount();
        if (type == ElementType.COMPLEX64 || type == ElementType.COMPLEX128) {
            return typed / 2;
        }
        if (type.bits() < 8) {
            // packed sub-byte types: one int32 per byte's worth of elements
            long perWord = 8 / type.bits();
            return typed == (elements + perWord - 1) / perWord ? elements : typed;
        }
        return typed;
    }

    private static Values decode(TensorProto t, ElementType type, int n, String where, String name) {
        boolean integral = type.kind() == ElementType.Kind.INTEGER;
        if (!t.hasRawData()) {
            // the count check of info() adds up every typed field: the one this type uses must hold them all
            int available = switch (type) {
                case INT64 -> t.getInt64DataCount();
                case UINT32, UINT64 -> t.getUint64DataCount();
                case FLOAT -> t.getFloatDataCount();
                case DOUBLE -> t.getDoubleDataCount();
                default -> t.getInt32DataCount(); // int32, int16, int8, uint16, uint8, bool, float16, bfloat16
            };
            if (available < n) {
                throw Require.invalid(where, "tensor '" + name + "' of type " + type + " holds "
                        + available + " of its " + n + " values in the field its type uses (the file is corrupt)");
            }
        }
        if (t.hasRawData()) {
            ByteString raw = t.getRawData();
            ByteBuffer b = raw.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            if (integral) {
                long[] v = new long[n];
                for (int i = 0; i < n; i++) {
                    v[i] = switch (type) {
                        case INT64, UINT64 -> b.getLong();
                        case INT32 -> b.getInt();
                        case UINT32 -> b.getInt() & 0xFFFF_FFFFL;
                        case INT16 -> b.getShort();
                        case UINT16 -> b.getShort() & 0xFFFF;
                        case INT8 -> b.get();
                        case UINT8 -> b.get() & 0xFF;
                        case BOOL -> b.get() != 0 ? 1 : 0;
                        default -> throw new IllegalStateException(type.id());
                    };
                }
                return Values.ofInts(v);
            }
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                v[i] = switch (type) {
                    case FLOAT -> b.getFloat();
                    case DOUBLE -> b.getDouble();
                    case FLOAT16 -> Half.toFloat(b.getShort());
                    case BFLOAT16 -> Float.intBitsToFloat((b.getShort() & 0xFFFF) << 16);
                    default -> throw new IllegalStateException(type.id());
                };
            }
            return Values.ofReals(v);
        }
        if (integral) {
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = switch (type) {
                    case INT64 -> t.getInt64Data(i);
                    case UINT32, UINT64 -> t.getUint64Data(i);
                    case BOOL -> t.getInt32Data(i) != 0 ? 1 : 0;
                    default -> t.getInt32Data(i);
                };
            }
            return Values.ofInts(v);
        }
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = switch (type) {
                case FLOAT -> t.getFloatData(i);
                case DOUBLE -> t.getDoubleData(i);
                case FLOAT16 -> Half.toFloat((short) t.getInt32Data(i));
                case BFLOAT16 -> Float.intBitsToFloat((t.getInt32Data(i) & 0xFFFF) << 16);
                default -> throw new IllegalStateException(type.id());
            };
        }
        return Values.ofReals(v);
    }

    /** IEEE 754 half precision to float (Java 17 has no Float.float16ToFloat). */
    static final class Half {
        private Half() {
        }

        static float toFloat(short h) {
            int bits = h & 0xFFFF;
            int sign = (bits & 0x8000) << 16;
            int exp = (bits >>> 10) & 0x1F;
            int mant = bits & 0x3FF;
            if (exp == 0x1F) {
                return Float.intBitsToFloat(sign | 0x7F80_0000 | (mant << 13));
            }
            if (exp == 0) {
                if (mant == 0) {
                    return Float.intBitsToFloat(sign);
                }
                float f = mant * 0x1p-24f;
                return sign != 0 ? -f : f;
            }
            return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
        }
    }
}
