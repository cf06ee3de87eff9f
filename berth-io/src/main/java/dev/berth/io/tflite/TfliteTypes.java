package dev.berth.io.tflite;

import org.tensorflow.lite.schema.BuiltinOperator;
import org.tensorflow.lite.schema.TensorType;

/** Element sizes of TFLite tensor types, as TFLM's {@code TfLiteTypeSizeOf} gives them. */
final class TfliteTypes {
    static final int BFLOAT16 = 18;

    private TfliteTypes() {
    }

    /** The schema's name of a type code. */
    static String name(int type) {
        if (type == BFLOAT16) {
            return "BFLOAT16";
        }
        if (type >= 0 && type < TensorType.names.length) {
            return TensorType.name(type);
        }
        // the schema's type is a byte: read as unsigned, as its enum values are written
        return "code " + (type & 0xFF) + " (not a type the schema knows)";
    }

    /**
     * Bytes per element as TFLM computes them, or -1 for a type with no fixed size (string,
     * resource, variant) or one TFLM does not know. INT4 takes one byte per element in TFLM's
     * arena (it is unpacked), as TFLM's own size function says.
     */
    static int elementSize(int type) {
        return switch (type) {
            case TensorType.FLOAT16, TensorType.INT16, TensorType.UINT16, BFLOAT16 -> 2;
            case TensorType.FLOAT32, TensorType.INT32, TensorType.UINT32 -> 4;
            case TensorType.FLOAT64, TensorType.INT64, TensorType.UINT64, TensorType.COMPLEX64 -> 8;
            case TensorType.COMPLEX128 -> 16;
            case TensorType.UINT8, TensorType.INT8, TensorType.BOOL, TensorType.INT4 -> 1;
            default -> -1;
        };
    }

    /** The schema's name of a builtin operator code. */
    static String builtinName(int code) {
        try {
            String n = BuiltinOperator.name(code);
            if (n != null && !n.isEmpty()) {
                return n;
            }
        } catch (RuntimeException e) {
            // a code newer than the schema the classes were generated from
        }
        return "BUILTIN_" + code;
    }
}
