package dev.berth.io.tflite;

import com.google.flatbuffers.FlatBufferBuilder;
import dev.berth.failure.Require;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Copies the tables of a verified {@code .tflite} FlatBuffer into a new one, field by field, with
 * the FlatBuffers runtime's builder: every field the schema defines ({@link TfliteSchema}) is
 * written as the input has it (a scalar's bytes, a string's bytes, a vector's elements, a table's
 * fields, a union's type and table), a present field stays present (even at its default) and an
 * absent one absent; vector data is aligned as the schema says (a buffer's data to 16, its
 * {@code force_align}). What several fields point to in the input (one table, vector or string at
 * one position) is written once and shared the same way, so nothing is written twice and nothing
 * unreferenced is written. Indices into {@code Model.buffers} go through a map (the caller drops
 * buffers nothing refers to).
 *
 * <p>What this copy cannot keep is {@code invalid-input}, never dropped: a field whose id the
 * schema does not define, a union value whose type the schema does not define (or without a type),
 * a position counted from the file's start (a buffer's {@code offset} or {@code size}, an
 * operator's large custom options: data outside the FlatBuffer, which a rebuilt file would move).
 * Work is bounded: the objects copied may add up to at most the input's bytes (more means objects
 * that overlap, a crafted file) and their field layouts to at most {@link #MAX_LAYOUTS} (the
 * builder compares each table with every layout written before).
 */
final class TfliteRebuild {
    /** Distinct (table type, fields present) pairs a rebuild writes at most. */
    static final int MAX_LAYOUTS = 4096;

    private final TfliteVerifier v;
    private final ByteBuffer in;
    private final String what;
    private final FlatBufferBuilder b;
    private final int[] bufferMap;
    private final Map<String, Integer> written = new HashMap<>();
    private final Set<String> layouts = new HashSet<>();
    private long budget;

    /**
     * @param bufferMap per buffer index of the input, its index in the output, -1 for a dropped
     *                  buffer (no index read may point to one: a bug of the caller)
     */
    TfliteRebuild(TfliteVerifier v, ByteBuffer in, String what, FlatBufferBuilder b, int[] bufferMap) {
        this.v = v;
        this.in = in.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        this.what = what;
        this.b = b;
        this.bufferMap = bufferMap.clone();
        this.budget = in.limit();
        b.forceDefaults(true);
    }

    /** The table of {@code type} at input position {@code pos}, copied (once per position). */
    int table(long pos, String type, String where) {
        String key = type + "@" + pos;
        Integer done = written.get(key);
        if (done != null) {
            return done;
        }
        int o = table(v.table(pos, where), type, Map.of(), where);
        written.put(key, o);
        return o;
    }

    /**
     * Table {@code t} of {@code type} copied, but for the fields in {@code given} (field id → an
     * offset the caller wrote), which point there instead, present or not in the input.
     */
    int table(TfliteVerifier.Table t, String type, Map<Integer, Integer> given, String where) {
        TfliteSchema.TableType k = TfliteSchema.table(type);
        spend(t.tableSize(), where);
        for (int id = k.fields().size(); 4 + 2 * id < t.vtableSize(); id++) {
            if (v.field(t, id, 0, where) != 0) {
                throw Require.invalid(what, where + " (a " + type + " table) has field " + id
                        + ", which the TFLite schema Berth knows does not define (" + type + " has "
                        + k.fields().size() + " fields); Berth does not rewrite the model without it");
            }
        }
        int n = k.fields().size();
        int[] at = new int[n];
        int[] offsets = new int[n];
        StringBuilder layout = new StringBuilder(type).append(':');
        for (TfliteSchema.Field f : k.fields()) {
            String w = where + "." + f.name();
            Integer mine = given.get(f.id());
            int fo = mine != null ? -1 : v.field(t, f.id(), f.inlineSize(), w);
            at[f.id()] = fo;
            layout.append(fo == 0 ? '0' : '1');
            if (mine != null) {
                offsets[f.id()] = mine;
            } else if (fo != 0) {
                offsets[f.id()] = child(t, f, t.pos() + fo, where);
            }
        }
        if (layouts.add(layout.toString()) && layouts.size() > MAX_LAYOUTS) {
            throw Require.invalid(what, "its tables have more than " + MAX_LAYOUTS + " layouts of "
                    + "fields present (a crafted file); Berth does not rewrite it");
        }
        b.startTable(n);
        // the widest fields first, so that the builder pads least
        for (int width : new int[] {8, 4, 2, 1}) {
            for (TfliteSchema.Field f : k.fields()) {
                if (at[f.id()] != 0 && f.inlineSize() == width) {
                    add(f, t.pos() + at[f.id()], offsets[f.id()]);
                }
            }
        }
        return b.endTable();
    }

    private void add(TfliteSchema.Field f, long pos, int offset) {
        int id = f.id();
        switch (f.kind()) {
            case SCALAR, FILE_POSITION -> {
                switch (f.size()) {
                    case 1 -> b.addByte(id, in.get((int) pos), (byte) 0);
                    case 2 -> b.addShort(id, in.getShort((int) pos), (short) 0);
                    case 4 -> b.addInt(id, in.getInt((int) pos), 0);
                    default -> b.addLong(id, in.getLong((int) pos), 0L);
                }
            }
            case BUFFER_INDEX -> b.addInt(id, buffer(in.getInt((int) pos) & 0xFFFF_FFFFL), 0);
            default -> b.addOffset(id, offset, 0);
        }
    }

    /**
     * Writes what field {@code f} of table {@code t} (the field at input position {@code pos}) points
     * to; its offset, 0 for a scalar.
     */
    private int child(TfliteVerifier.Table t, TfliteSchema.Field f, long pos, String table) {
        String where = table + "." + f.name();
        switch (f.kind()) {
            case SCALAR, BUFFER_INDEX -> {
                return 0;
            }
            case FILE_POSITION -> {
                long value = in.getLong((int) pos);
                if (value != 0) {
                    throw Require.invalid(what, table + " has its " + f.name() + " field set ("
                            + Long.toUnsignedString(value) + "): its data "
                            + "lies outside the FlatBuffer, at a position counted from the file's start, which TFLM does "
                            + "not read and a rewritten model would move; Berth writes --tflm-plan only for models that "
                            + "hold their data");
                }
                return 0;
            }
            case UNION -> {
                return union(t, f, where);
            }
            default -> {
                long target = v.ref(t, f.id(), where);
                return object(target, f, where);
            }
        }
    }

    private int union(TfliteVerifier.Table t, TfliteSchema.Field f, String where) {
        int typeAt = v.field(t, f.id() - 1, 1, where + "_type");
        int type = typeAt == 0 ? 0 : in.get((int) (t.pos() + typeAt)) & 0xFF;
        String member = TfliteSchema.member(f.ref(), type).orElseThrow(() -> Require.invalid(what, where
                + " holds a table of union " + f.ref() + " whose type is " + type
                + (type == 0 ? " (none)" : ", which the TFLite schema Berth knows does not define")
                + "; Berth does not rewrite the model without it"));
        return table(v.ref(t, f.id(), where), member, where + " (" + member + ")");
    }

    private int object(long pos, TfliteSchema.Field f, String where) {
        String key = f.kind() + ":" + f.size() + "/" + f.align() + ":" + f.ref() + "@" + pos;
        Integer done = written.get(key);
        if (done != null) {
            return done;
        }
        int o = switch (f.kind()) {
            case TABLE -> table(pos, f.ref(), where);
            case STRING -> string(pos, where);
            case SCALARS -> scalars(pos, f.size(), f.align(), where);
            case TABLES -> tables(pos, f.ref(), where);
            case BUFFER_INDICES -> bufferIndices(pos, where);
            default -> throw new IllegalArgumentException(f.kind() + " is not an object");
        };
        written.put(key, o);
        return o;
    }

    private int string(long pos, String where) {
        TfliteVerifier.Vec s = v.vectorAt(pos, 1, where);
        if (s.length() + 1 > v.length() - s.start() || in.get((int) (s.start() + s.length())) != 0) {
            throw v.bad(where, "the string at byte " + pos + " of " + s.length() + " bytes is not terminated by a zero "
                    + "byte inside the file");
        }
        spend(4 + s.length() + 1, where);
        return b.createString(in.slice((int) s.start(), (int) s.length()));
    }

    private int scalars(long pos, int size, int align, String where) {
        TfliteVerifier.Vec s = v.vectorAt(pos, size, where);
        int bytes = (int) (s.length() * size);
        spend(4 + (long) bytes, where);
        b.createUnintializedVector(size, (int) s.length(), align).put(in.slice((int) s.start(), bytes));
        return b.endVector();
    }

    private int tables(long pos, String type, String where) {
        TfliteVerifier.Vec s = v.vectorAt(pos, 4, where);
        spend(4 + 4 * s.length(), where);
        int[] elements = new int[(int) s.length()];
        for (int i = 0; i < elements.length; i++) {
            long p = s.start() + 4L * i;
            long target = p + (in.getInt((int) p) & 0xFFFF_FFFFL);
            elements[i] = table(target, type, where + "[" + i + "]");
        }
        b.startVector(4, elements.length, 4);
        for (int i = elements.length - 1; i >= 0; i--) {
            b.addOffset(elements[i]);
        }
        return b.endVector();
    }

    private int bufferIndices(long pos, String where) {
        TfliteVerifier.Vec s = v.vectorAt(pos, 4, where);
        spend(4 + 4 * s.length(), where);
        int[] kept = new int[(int) s.length()];
        int n = 0;
        for (int i = 0; i < kept.length; i++) {
            long index = in.getInt((int) (s.start() + 4L * i)) & 0xFFFF_FFFFL;
            if (index >= bufferMap.length) {
                throw v.bad(where + "[" + i + "]", "buffer " + index + " does not exist (the model has "
                        + bufferMap.length + " buffers)");
            }
            if (bufferMap[(int) index] >= 0) {
                kept[n++] = bufferMap[(int) index];
            }
        }
        ByteBuffer data = b.createUnintializedVector(4, n, 4);
        for (int i = 0; i < n; i++) {
            data.putInt(4 * i, kept[i]);
        }
        return b.endVector();
    }

    private int buffer(long index) {
        if (index >= bufferMap.length) {
            throw Require.invalid(what, "not a valid TensorFlow Lite model: buffer " + index
                    + " does not exist (the model has " + bufferMap.length + " buffers)");
        }
        int to = bufferMap[(int) index];
        if (to < 0) {
            throw new IllegalStateException("buffer " + index + " was dropped but is referred to");
        }
        return to;
    }

    private void spend(long bytes, String where) {
        budget -= bytes;
        if (budget < 0) {
            throw v.bad(where, "the model's tables, vectors and strings add up to more bytes than the file's "
                    + in.limit() + ": they overlap (a crafted file); Berth does not rewrite it");
        }
    }
}
