package dev.berth.io.tflite;

import dev.berth.arith.Checked;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.failure.BerthException;
import dev.berth.failure.Require;
import org.tensorflow.lite.schema.Buffer;
import org.tensorflow.lite.schema.Model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a plan into a copy of the model as TFLM's offline memory plan: a metadata entry
 * {@code OfflineMemoryAllocation} whose buffer holds little-endian int32 words
 * {@code [0 (format version), subgraphs, n, offset_0 ... offset_{n-1}]}, one offset per tensor of
 * every subgraph in order, -1 for every tensor TFLM plans itself or does not plan (constants,
 * variables, tensors of no bytes).
 *
 * <p>The copy keeps every byte of the input: the whole input is placed, unchanged, after a new
 * head of 16·k bytes, so every offset inside it (FlatBuffers offsets are relative) still holds and
 * buffer data keeps its position modulo 16. The head holds a new root Model table with the input's
 * fields (rebased), a buffers vector with one more buffer (the plan's words, 16-aligned), a
 * metadata vector with the new entry (an entry of the same name already there is dropped: TFLM
 * would read the last) and, for every buffer whose data does not start at a multiple of 16 (the
 * schema's {@code force_align: 16}, which flatc's Java builder ignores), a new Buffer table
 * pointing to a copy of its bytes placed after the input, 16-aligned. Aligned buffers stay in the
 * input's copy. FlatBuffers offsets only point forward, so the new tables precede what they
 * refer to. The input's old Model table (and each moved Buffer table) stays in the copy,
 * unreferenced. A Model table, or a Buffer table to be moved, with fields this schema does not
 * know is refused rather than rewritten without them; so is a buffer whose {@code offset} or
 * {@code size} is set (data outside the FlatBuffer at a position counted from the file's start,
 * which the copy would move). The object API is never used: it would turn absent vectors into
 * empty ones, which TFLM rejects. Before returning, the written bytes are read back and checked:
 * the plan's words, the tensors, every buffer's bytes equal to the input's, its data 16-aligned.
 */
public final class TflmOfflinePlan {
    /** The format version Berth writes (TFLM ignores it; Vela writes 0 too). */
    static final int VERSION = 0;
    private static final int MODEL_FIELDS = 8;

    private TflmOfflinePlan() {
    }

    /**
     * The offsets TFLM's offline plan gets from Berth's plan: planned, non-variable tensors in the
     * arena. A plan without a buffer for one of them (a plan of another model) is {@code invalid-input}
     * naming {@code plan}.
     */
    public static int[] offsets(ImportedTflite m, Plan plan) {
        Require.nonNull(m, "m");
        Require.nonNull(plan, "plan");
        Map<String, PlannedBuffer> at = new HashMap<>();
        for (PlannedBuffer b : plan.buffers()) {
            if (b.space().equals(m.arenaSpace())) {
                at.put(b.name(), b);
            }
        }
        List<TflmView.Entry> entries = m.view().entries();
        int[] out = new int[entries.size()];
        for (int i = 0; i < out.length; i++) {
            TflmView.Entry e = entries.get(i);
            out[i] = -1;
            if (e.planned() && !e.variable()) {
                PlannedBuffer b = at.get(e.label());
                if (b == null) {
                    throw BerthException.invalid("plan", e.label(), "plan: the model's planned tensor " + e.label()
                            + " has no buffer in space " + m.arenaSpace() + "; the plan is not one of this model");
                }
                long o = b.offset();
                if (o > Integer.MAX_VALUE || b.reserved() > Integer.MAX_VALUE - o) {
                    throw BerthException.invalid("--tflm-plan", "tensor " + e.label() + " is placed at offset " + o
                            + " (" + b.reserved() + " bytes): TFLM's offline plan holds int32 offsets; plan on a target "
                            + "whose arena format ends below 2^31 (the tflm target's does)");
                }
                out[i] = (int) o;
            }
        }
        return out;
    }

    /** The bytes of {@code input} with {@code offsets} as its offline plan. */
    public static byte[] write(Path input, TfliteModel m, int[] offsets) {
        String what = input.toString();
        try (FileChannel ch = FileChannel.open(input, StandardOpenOption.READ)) {
            if (ch.size() > TfliteReader.MAX_FILE) {
                throw BerthException.invalid(what, what + ": too large to rewrite");
            }
            return write(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()), what, m, offsets);
        } catch (IOException e) {
            throw dev.berth.io.FileErrors.cannotRead(input, what, e);
        }
    }

    /**
     * The bytes of {@code original} (the file {@code m} was read from) with {@code offsets} as its
     * offline plan: one per tensor, each -1 or an offset, else {@code invalid-input} naming
     * {@code offsets} ({@code offsets[3]}).
     */
    public static byte[] write(ByteBuffer original, String what, TfliteModel m, int[] offsets) {
        Require.nonNull(m, "m");
        Require.nonNull(offsets, "offsets");
        ByteBuffer in = original.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        TfliteVerifier v = TfliteVerifier.of(in, what);
        TfliteModel again = TfliteReader.read(in, what);
        if (again.tensorCount() != m.tensorCount() || again.subgraphs().size() != m.subgraphs().size()) {
            throw BerthException.invalid(what, what + ": the file changed since it was planned");
        }
        if (offsets.length != m.tensorCount()) {
            throw BerthException.invalid("offsets", Integer.toString(offsets.length), "offsets: " + offsets.length
                    + " offsets, but " + what + " has " + m.tensorCount() + " tensors; an offline plan has one per tensor");
        }
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] < -1) {
                throw BerthException.invalid("offsets[" + i + "]", Integer.toString(offsets[i]), "offsets[" + i + "]: an "
                        + "arena offset 0..2^31-1, or -1 for a tensor TFLM plans itself, got " + offsets[i]);
            }
        }
        TfliteVerifier.Table model = v.root();
        for (int id = MODEL_FIELDS; 4 + 2 * id < model.vtableSize(); id++) {
            if (v.field(model, id, 0, "Model") != 0) {
                throw BerthException.invalid(what, what + ": its Model table has field " + id + ", which the TFLite "
                        + "schema Berth reads does not know; Berth does not rewrite the model without it");
            }
        }
        long[] target = new long[MODEL_FIELDS];
        for (int id = 1; id < MODEL_FIELDS; id++) {
            target[id] = v.ref(model, id, "Model field " + id);
        }
        long[] buffers = elements(v, in, target[4], "Model.buffers");
        Moves moves = Moves.of(v, in, what, buffers);
        long[] metadata = elements(v, in, target[6], "Model.metadata");
        List<Long> keep = new ArrayList<>();
        for (int i = 0; i < metadata.length; i++) {
            if (!m.metadata().get(i).name().equals(TfliteModel.OFFLINE_PLAN)) {
                keep.add(metadata[i]);
            }
        }
        int[] words = new int[3 + offsets.length];
        words[0] = VERSION;
        words[1] = m.subgraphs().size();
        words[2] = offsets.length;
        System.arraycopy(offsets, 0, words, 3, offsets.length);
        byte[] name = TfliteModel.OFFLINE_PLAN.getBytes(java.nio.charset.StandardCharsets.UTF_8);

        // the head's layout (every position below 2^31: the buffers and metadata vectors of the input
        // fit in it, so these sums of a few of them cannot overflow a long)
        int modelVt = 8;
        int modelVtSize = 4 + 2 * MODEL_FIELDS;
        int modelTable = modelVt + modelVtSize; // 28: 4-aligned
        int modelSize = 4 + 4 * MODEL_FIELDS;
        long buffersVec = modelTable + modelSize;
        long metadataVec = buffersVec + 4 + 4L * (buffers.length + 1);
        long metaVt = metadataVec + 4 + 4L * (keep.size() + 1);
        long metaTable = metaVt + 8;
        long nameStr = metaTable + 12;
        // one vtable for every Buffer table of the head: the plan's, then one per moved buffer
        long bufVt = align(nameStr + 4 + name.length + 1, 4);
        long bufTable = bufVt + 8;
        long movedTables = bufTable + 8;
        long dataVec = align(movedTables + 8L * moves.tables().length + 4, 16) - 4; // the data itself 16-aligned
        long shift = align(dataVec + 4 + 4L * words.length, 16);
        long copies = Checked.subtract(Checked.alignUp(Checked.add(Checked.add(shift, in.limit()), 4), 16), 4);
        long end = copies;
        long[] copyAt = new long[moves.vectors().length];
        for (int c = 0; c < copyAt.length; c++) {
            copyAt[c] = end;
            long bytes = moves.lengths()[c];
            end = Checked.add(end, 4 + bytes);
            if (c + 1 < copyAt.length) {
                end = Checked.subtract(Checked.alignUp(Checked.add(end, 4), 16), 4);
            }
        }
        if (end > TfliteReader.MAX_FILE) {
            throw BerthException.invalid(what, what + ": the model with its plan and its buffers realigned would pass "
                    + "2^31-1 bytes (" + end + ")");
        }
        ByteBuffer out = ByteBuffer.allocate((int) end).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(0, modelTable);
        out.put(4, TfliteVerifier.IDENTIFIER.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        // Model: vtable, then the table with one 4-byte slot per field
        out.putShort(modelVt, (short) modelVtSize);
        out.putShort(modelVt + 2, (short) modelSize);
        out.putInt(modelTable, modelTable - modelVt);
        int version = v.field(model, 0, 4, "Model.version");
        for (int id = 0; id < MODEL_FIELDS; id++) {
            int slot = modelTable + 4 + 4 * id;
            long to = id == 4 ? buffersVec : id == 6 ? metadataVec : target[id] < 0 ? -1 : target[id] + shift;
            if (id == 0) {
                if (version == 0) {
                    continue;
                }
                out.putInt(slot, in.getInt((int) (model.pos() + version)));
            } else if (to < 0) {
                continue;
            } else {
                out.putInt(slot, (int) (to - slot));
            }
            out.putShort(modelVt + 4 + 2 * id, (short) (slot - modelTable));
        }
        // buffers: the input's (a moved one's new table in the head), then the plan's
        out.putInt((int) buffersVec, buffers.length + 1);
        for (int j = 0; j <= buffers.length; j++) {
            long p = buffersVec + 4 + 4L * j;
            long to = j == buffers.length ? bufTable
                    : moves.tableOf()[j] >= 0 ? movedTables + 8L * moves.tableOf()[j] : buffers[j] + shift;
            out.putInt((int) p, (int) (to - p));
        }
        // metadata: the input's but an old plan, then the new entry
        out.putInt((int) metadataVec, keep.size() + 1);
        for (int j = 0; j <= keep.size(); j++) {
            long p = metadataVec + 4 + 4L * j;
            long to = j < keep.size() ? keep.get(j) + shift : metaTable;
            out.putInt((int) p, (int) (to - p));
        }
        out.putShort((int) metaVt, (short) 8);
        out.putShort((int) metaVt + 2, (short) 12);
        out.putShort((int) metaVt + 4, (short) 4);
        out.putShort((int) metaVt + 6, (short) 8);
        out.putInt((int) metaTable, (int) (metaTable - metaVt));
        out.putInt((int) metaTable + 4, (int) (nameStr - (metaTable + 4)));
        out.putInt((int) metaTable + 8, buffers.length);
        out.putInt((int) nameStr, name.length);
        out.put((int) nameStr + 4, name);
        // Buffer tables: one field, data, at offset 4
        out.putShort((int) bufVt, (short) 6);
        out.putShort((int) bufVt + 2, (short) 8);
        out.putShort((int) bufVt + 4, (short) 4);
        out.putInt((int) bufTable, (int) (bufTable - bufVt));
        out.putInt((int) bufTable + 4, (int) (dataVec - (bufTable + 4)));
        for (int t = 0; t < moves.tables().length; t++) {
            long table = movedTables + 8L * t;
            out.putInt((int) table, (int) (table - bufVt));
            out.putInt((int) table + 4, (int) (copyAt[moves.vectorOf()[t]] - (table + 4)));
        }
        out.putInt((int) dataVec, 4 * words.length);
        for (int w = 0; w < words.length; w++) {
            out.putInt((int) (dataVec + 4 + 4L * w), words[w]);
        }
        out.put((int) shift, in, 0, in.limit());
        // the moved buffers' data, each 16-aligned after its length
        for (int c = 0; c < copyAt.length; c++) {
            int n = (int) moves.lengths()[c];
            out.putInt((int) copyAt[c], n);
            out.put((int) copyAt[c] + 4, in, (int) moves.vectors()[c] + 4, n);
        }
        byte[] bytes = out.array();
        check(bytes, in, what, m, words);
        return bytes;
    }

    /**
     * The input's buffers whose data does not start at a multiple of 16 and so gets a new Buffer
     * table in the head and a copy of its data after the input. Buffer tables (and data vectors)
     * shared between buffers move once.
     *
     * @param tables   the input positions of the Buffer tables that move, in buffer order
     * @param vectorOf per moved table, the index of its data vector in {@code vectors}
     * @param vectors  the input positions of the data vectors that move (their length prefix)
     * @param lengths  per moved vector, its bytes
     * @param tableOf  per buffer of the model, the index of its moved table, -1 when it stays
     */
    private record Moves(long[] tables, int[] vectorOf, long[] vectors, long[] lengths, int[] tableOf) {
        static Moves of(TfliteVerifier v, ByteBuffer in, String what, long[] buffers) {
            Map<Long, Integer> tables = new LinkedHashMap<>();
            Map<Long, Integer> vectors = new LinkedHashMap<>();
            List<Integer> vectorOf = new ArrayList<>();
            List<Long> lengths = new ArrayList<>();
            int[] tableOf = new int[buffers.length];
            for (int j = 0; j < buffers.length; j++) {
                String w = "buffer " + j;
                TfliteVerifier.Table t = v.table(buffers[j], w);
                for (int id = 1; id <= 2; id++) {
                    int fo = v.field(t, id, 8, w);
                    if (fo != 0 && in.getLong((int) (t.pos() + fo)) != 0) {
                        throw BerthException.invalid(what, what + ": buffer " + j + " has its "
                                + (id == 1 ? "offset" : "size") + " field set (" + Long.toUnsignedString(
                                in.getLong((int) (t.pos() + fo))) + "): its data lies outside the FlatBuffer, at a "
                                + "position counted from the file's start, which TFLM does not read and Berth's copy "
                                + "would move; Berth writes --tflm-plan only for models whose buffers hold their data");
                    }
                }
                tableOf[j] = -1;
                long vec = v.ref(t, 0, w + " data");
                long n = vec < 0 ? 0 : v.vectorAt(vec, 1, w + " data").length();
                if (n == 0 || (vec + 4) % 16 == 0) {
                    continue;
                }
                for (int id = 3; 4 + 2 * id < t.vtableSize(); id++) {
                    if (v.field(t, id, 0, w) != 0) {
                        throw BerthException.invalid(what, what + ": buffer " + j + ", whose data Berth must move to "
                                + "align it to 16 bytes, has field " + id + ", which the TFLite schema Berth reads "
                                + "does not know; Berth does not rewrite the buffer without it");
                    }
                }
                Integer known = tables.get(t.pos());
                if (known != null) {
                    tableOf[j] = known;
                    continue;
                }
                tableOf[j] = tables.size();
                tables.put(t.pos(), tables.size());
                Integer copy = vectors.get(vec);
                if (copy == null) {
                    copy = vectors.size();
                    vectors.put(vec, copy);
                    lengths.add(n);
                }
                vectorOf.add(copy);
            }
            return new Moves(tables.keySet().stream().mapToLong(Long::longValue).toArray(),
                    vectorOf.stream().mapToInt(Integer::intValue).toArray(),
                    vectors.keySet().stream().mapToLong(Long::longValue).toArray(),
                    lengths.stream().mapToLong(Long::longValue).toArray(), tableOf);
        }
    }

    /**
     * The written model reads back as the input with the plan: same tensors as TFLM sees them, the
     * words given, every buffer of the input with the same bytes, its data (if any) 16-aligned.
     */
    private static void check(byte[] bytes, ByteBuffer in, String what, TfliteModel m, int[] words) {
        TfliteModel back = TfliteReader.read(ByteBuffer.wrap(bytes), what + " (with its offline plan)");
        if (back.offlinePlan().isEmpty() || !Arrays.equals(back.offlinePlan().get(), words)
                || back.tensorCount() != m.tensorCount() || back.bufferBytes().length != m.bufferBytes().length + 1
                || !Arrays.equals(Arrays.copyOf(back.bufferBytes(), m.bufferBytes().length), m.bufferBytes())) {
            throw new IllegalStateException("the model written with its offline plan does not read back as written");
        }
        Model before = Model.getRootAsModel(in.duplicate().position(0).order(ByteOrder.LITTLE_ENDIAN));
        Model after = Model.getRootAsModel(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
        Buffer a = new Buffer();
        Buffer b = new Buffer();
        for (int j = 0; j < after.buffersLength(); j++) {
            ByteBuffer data = after.buffers(b, j).dataAsByteBuffer();
            if (data != null && data.hasRemaining() && (data.position() % 16 != 0
                    || j < before.buffersLength() && !data.equals(before.buffers(a, j).dataAsByteBuffer()))) {
                throw new IllegalStateException("buffer " + j + " of the model written with its offline plan is not "
                        + "the input's data at a 16-aligned position");
            }
        }
    }

    private static long[] elements(TfliteVerifier v, ByteBuffer in, long vector, String where) {
        if (vector < 0) {
            return new long[0];
        }
        TfliteVerifier.Vec vec = v.vectorAt(vector, 4, where);
        long[] out = new long[(int) vec.length()];
        for (int i = 0; i < out.length; i++) {
            long p = vec.start() + 4L * i;
            out[i] = p + (in.getInt((int) p) & 0xFFFF_FFFFL);
        }
        return out;
    }

    private static long align(long x, long a) {
        return (x + a - 1) / a * a;
    }
}
