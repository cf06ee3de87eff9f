package dev.berth.io.onnx;

import dev.berth.arith.Checked;
import dev.berth.failure.BerthException;
import dev.berth.failure.Require;

import java.util.Optional;

/**
 * An ONNX element type ({@code TensorProto.DataType}) and how many bits one element takes.
 * A tensor's byte size is {@code ceil(elements × bits / 8)}: sub-byte types (4- and 2-bit) are
 * packed, as the ONNX spec stores them. {@code STRING} has no fixed size, so a string tensor
 * cannot be planned.
 */
public enum ElementType {
    FLOAT(1, "float32", 32, Kind.REAL),
    UINT8(2, "uint8", 8, Kind.INTEGER),
    INT8(3, "int8", 8, Kind.INTEGER),
    UINT16(4, "uint16", 16, Kind.INTEGER),
    INT16(5, "int16", 16, Kind.INTEGER),
    INT32(6, "int32", 32, Kind.INTEGER),
    INT64(7, "int64", 64, Kind.INTEGER),
    STRING(8, "string", 0, Kind.OTHER),
    BOOL(9, "bool", 8, Kind.INTEGER),
    FLOAT16(10, "float16", 16, Kind.REAL),
    DOUBLE(11, "float64", 64, Kind.REAL),
    UINT32(12, "uint32", 32, Kind.INTEGER),
    UINT64(13, "uint64", 64, Kind.INTEGER),
    COMPLEX64(14, "complex64", 64, Kind.OTHER),
    COMPLEX128(15, "complex128", 128, Kind.OTHER),
    BFLOAT16(16, "bfloat16", 16, Kind.REAL),
    FLOAT8E4M3FN(17, "float8e4m3fn", 8, Kind.OTHER),
    FLOAT8E4M3FNUZ(18, "float8e4m3fnuz", 8, Kind.OTHER),
    FLOAT8E5M2(19, "float8e5m2", 8, Kind.OTHER),
    FLOAT8E5M2FNUZ(20, "float8e5m2fnuz", 8, Kind.OTHER),
    UINT4(21, "uint4", 4, Kind.OTHER),
    INT4(22, "int4", 4, Kind.OTHER),
    FLOAT4E2M1(23, "float4e2m1", 4, Kind.OTHER),
    FLOAT8E8M0(24, "float8e8m0", 8, Kind.OTHER),
    UINT2(25, "uint2", 2, Kind.OTHER),
    INT2(26, "int2", 2, Kind.OTHER);

    /** How the importer can hold known values of this type while folding constants. */
    public enum Kind {
        /** Whole numbers and booleans: folded exactly as {@code long}. */
        INTEGER,
        /** float16/32/64 and bfloat16: folded as {@code double}. */
        REAL,
        /** Never folded (complex, 8-bit floats, packed sub-byte types, strings). */
        OTHER
    }

    private final int code;
    private final String id;
    private final int bits;
    private final Kind kind;

    ElementType(int code, String id, int bits, Kind kind) {
        this.code = code;
        this.id = id;
        this.bits = bits;
        this.kind = kind;
    }

    /** The {@code TensorProto.DataType} number. */
    public int code() {
        return code;
    }

    /** The name used in messages and in the shared expected-shape files, e.g. {@code float32}. */
    public String id() {
        return id;
    }

    /** Bits per element (0 for strings, which have no fixed size). */
    public int bits() {
        return bits;
    }

    public Kind kind() {
        return kind;
    }

    /** The type of a {@code TensorProto.DataType} number, if Berth knows it. */
    public static Optional<ElementType> byCode(int code) {
        for (ElementType t : values()) {
            if (t.code == code) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** The type of a data type number, or {@code invalid-input} naming {@code where}. */
    public static ElementType of(int code, String where) {
        return byCode(code).orElseThrow(() -> Require.invalid(where, Integer.toString(code),
                "element type " + code + " is not an ONNX data type Berth knows (1..26)"));
    }

    /**
     * Bytes of {@code elements} elements, {@code ceil(elements × bits / 8)}, with checked
     * arithmetic; a string tensor is {@code invalid-input} naming {@code tensor}.
     */
    public long bytes(long elements, String tensor) {
        if (this == STRING) {
            throw BerthException.invalid(tensor, "tensor '" + tensor + "' holds strings, which have no fixed size; "
                    + "Berth plans fixed-size tensors only");
        }
        if (bits % 8 == 0) {
            return Checked.multiply(elements, bits / 8);
        }
        // packed sub-byte elements: ceil(elements * bits / 8) without forming elements * bits
        long perByte = 8 / bits;
        return elements / perByte + (elements % perByte == 0 ? 0 : 1);
    }

    @Override
    public String toString() {
        return id;
    }
}
