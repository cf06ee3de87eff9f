package dev.berth.io.tflite;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Bounds checks over a {@code .tflite} FlatBuffer before any generated schema class reads it.
 * The FlatBuffers Java runtime does no verification: a truncated or crafted file makes it read
 * past the buffer, take a negative length for a huge one, or follow offsets in a circle. This
 * walk visits every table and vector that {@link TfliteReader} reads through the generated
 * classes (model, operator codes, subgraphs, tensors, operators, the IF / WHILE / CALL_ONCE
 * options, buffers, metadata) and checks, like the official C++ verifier:
 *
 * <ul>
 *   <li>the root offset and the file identifier {@code TFL3};</li>
 *   <li>every table: 4-byte aligned, inside the buffer, its vtable inside the buffer, 2-byte
 *       aligned, with even sizes of at least 4 that the runtime reads as positive shorts, the
 *       table's inline size inside the buffer, every field read inside the inline size;</li>
 *   <li>every offset field pointing inside the buffer; every vector 4-byte aligned with
 *       {@code length × element size} inside the buffer (computed in {@code long}); every string
 *       with its terminating zero inside the buffer;</li>
 *   <li>a budget: tables visited, elements of the vectors the reader iterates and bytes of the
 *       strings it copies add up to at most the file size, so that offsets shared between many tables (a crafted file can point a
 *       million subgraphs at one vector) cannot make reading take more than linear time.</li>
 * </ul>
 *
 * Field ids follow the TFLite schema (the ids of the generated classes). Tables Berth does not
 * read (quantization, sparsity, signatures, other builtin options) are not walked, and the
 * generated classes are never asked for them. Every violation is {@code invalid-input} naming the
 * file, the place in the model and the byte position.
 */
final class TfliteVerifier {
    static final String IDENTIFIER = "TFL3";

    private final ByteBuffer bb;
    private final long len;
    private final String what;
    private long budget;

    private TfliteVerifier(ByteBuffer buffer, String what) {
        this.bb = buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.len = bb.limit();
        this.what = what;
        this.budget = Math.max(len, 64);
    }

    /** A verified table: its position, its vtable's position and sizes. */
    record Table(long pos, long vtable, int vtableSize, int tableSize) {
    }

    /** A verified vector: the position of its first element and its length. */
    record Vec(long start, long length) {
    }

    static TfliteVerifier of(ByteBuffer buffer, String what) {
        return new TfliteVerifier(buffer, what);
    }

    BerthException bad(String where, String message) {
        return Require.invalid(what, "not a valid TensorFlow Lite model: " + where + ": " + message);
    }

    long length() {
        return len;
    }

    /** The root table, after checking size, root offset and identifier. */
    Table root() {
        if (len < 8) {
            throw bad("header", "the file has " + len + " bytes, fewer than the 8 of a FlatBuffer's root offset and "
                    + "file identifier" + (len == 0 ? " (the file is empty)" : " (it is truncated)"));
        }
        byte[] id = new byte[4];
        for (int i = 0; i < 4; i++) {
            id[i] = bb.get(4 + i);
        }
        String ident = new String(id, StandardCharsets.ISO_8859_1);
        if (!IDENTIFIER.equals(ident)) {
            throw bad("header", "the file identifier (bytes 4-7) is " + printable(id) + ", not \"TFL3\": this is not "
                    + "a TensorFlow Lite flatbuffer");
        }
        long root = u32(0);
        return table(root, "the root table (Model)");
    }

    private static String printable(byte[] id) {
        StringBuilder sb = new StringBuilder("\"");
        for (byte b : id) {
            sb.append(b >= 32 && b < 127 ? String.valueOf((char) b) : String.format("\\x%02x", b & 0xff));
        }
        return sb.append('"').toString();
    }

    private void spend(long n, String where) {
        budget -= n;
        if (budget < 0) {
            throw bad(where, "the model's tables and vectors add up to more items than a file of " + len
                    + " bytes can hold: its offsets point many times at the same data (a crafted file)");
        }
    }

    private long u32(long pos) {
        return bb.getInt((int) pos) & 0xFFFF_FFFFL;
    }

    private int u16(long pos) {
        return bb.getShort((int) pos) & 0xFFFF;
    }

    /** Checks the table at {@code pos}. */
    Table table(long pos, String where) {
        spend(1, where);
        if (pos < 0 || pos > len - 4) {
            throw bad(where, "the table at byte " + pos + " is outside the file of " + len + " bytes");
        }
        if (pos % 4 != 0) {
            throw bad(where, "the table at byte " + pos + " is not 4-byte aligned");
        }
        long soffset = bb.getInt((int) pos);
        long vt = pos - soffset;
        if (vt < 0 || vt > len - 4) {
            throw bad(where, "the vtable of the table at byte " + pos + " would be at byte " + vt
                    + ", outside the file of " + len + " bytes");
        }
        if (vt % 2 != 0) {
            throw bad(where, "the vtable at byte " + vt + " is not 2-byte aligned");
        }
        int vsize = u16(vt);
        int tsize = u16(vt + 2);
        if (vsize < 4 || vsize % 2 != 0 || vsize > Short.MAX_VALUE) {
            throw bad(where, "the vtable at byte " + vt + " gives its size as " + vsize
                    + " (an even number from 4 to 32766 expected)");
        }
        if (vsize > len - vt) {
            throw bad(where, "the vtable at byte " + vt + " of " + vsize + " bytes runs past the end of the file ("
                    + len + " bytes)");
        }
        if (tsize < 4 || tsize > Short.MAX_VALUE) {
            throw bad(where, "the vtable at byte " + vt + " gives the table's size as " + tsize
                    + " (4 to 32767 expected)");
        }
        if (tsize > len - pos) {
            throw bad(where, "the table at byte " + pos + " of " + tsize + " bytes runs past the end of the file ("
                    + len + " bytes)");
        }
        return new Table(pos, vt, vsize, tsize);
    }

    /** The offset of field {@code id} inside the table, 0 when absent; checks {@code size} bytes fit. */
    int field(Table t, int id, int size, String where) {
        int slot = 4 + 2 * id;
        if (slot >= t.vtableSize()) {
            return 0;
        }
        int fo = u16(t.vtable() + slot);
        if (fo == 0) {
            return 0;
        }
        if (fo < 4 || fo > t.tableSize() - size) {
            throw bad(where, "field " + id + " of the table at byte " + t.pos() + " is at offset " + fo
                    + ", outside the table's " + t.tableSize() + " bytes");
        }
        return fo;
    }

    /** The position an offset field points to, or -1 when the field is absent. */
    long ref(Table t, int id, String where) {
        int fo = field(t, id, 4, where);
        if (fo == 0) {
            return -1;
        }
        long p = t.pos() + fo;
        long target = p + u32(p);
        if (target > len - 4) {
            throw bad(where, "the offset at byte " + p + " points to byte " + target + ", past the end of the file ("
                    + len + " bytes)");
        }
        return target;
    }

    /** A sub-table, or null when absent. */
    Table subTable(Table t, int id, String where) {
        long p = ref(t, id, where);
        return p < 0 ? null : table(p, where);
    }

    /** Checks the vector at {@code pos} of elements of {@code elementSize} bytes. */
    Vec vectorAt(long pos, int elementSize, String where) {
        if (pos % 4 != 0) {
            throw bad(where, "the vector at byte " + pos + " is not 4-byte aligned");
        }
        long n = u32(pos);
        long room = len - pos - 4;
        if (n * elementSize > room) {
            throw bad(where, "the vector at byte " + pos + " claims " + n + " elements of " + elementSize
                    + " bytes, but only " + room + " bytes follow it in the file");
        }
        return new Vec(pos + 4, n);
    }

    /**
     * A vector field, or null when absent. {@code iterated}: the reader visits every element,
     * which is charged to the budget.
     */
    Vec vector(Table t, int id, int elementSize, boolean iterated, String where) {
        long p = ref(t, id, where);
        if (p < 0) {
            return null;
        }
        Vec v = vectorAt(p, elementSize, where);
        if (iterated) {
            spend(v.length(), where);
        }
        return v;
    }

    /** A string field: its bytes and the terminating zero must be in the file. */
    void string(Table t, int id, String where) {
        long p = ref(t, id, where);
        if (p < 0) {
            return;
        }
        long n = u32(p);
        long room = len - p - 4;
        if (n + 1 > room) {
            throw bad(where, "the string at byte " + p + " claims " + n + " bytes, but only " + room
                    + " bytes follow it in the file (its terminating zero included)");
        }
        if (bb.get((int) (p + 4 + n)) != 0) {
            throw bad(where, "the string at byte " + p + " of " + n + " bytes is not terminated by a zero byte");
        }
        // the reader copies every string it reads: shared strings are charged at every use
        spend(n, where);
    }

    /** The table that element {@code i} of a vector of tables points to. */
    Table element(Vec v, long i, String where) {
        long p = v.start() + 4 * i;
        long target = p + u32(p);
        if (target > len - 4) {
            throw bad(where, "the offset at byte " + p + " points to byte " + target + ", past the end of the file ("
                    + len + " bytes)");
        }
        return table(target, where);
    }

    /** A scalar field of {@code size} bytes: its bytes must be inside the table. */
    void scalar(Table t, int id, int size, String where) {
        field(t, id, size, where);
    }

    int byteAt(long pos) {
        return bb.get((int) pos);
    }

    int int32(Vec v, long i) {
        return bb.getInt((int) (v.start() + 4 * i));
    }
}
