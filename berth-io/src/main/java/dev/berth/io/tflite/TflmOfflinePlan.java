package dev.berth.io.tflite;

import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.failure.BerthException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 * buffer data keeps its alignment up to 16. The head holds a new root Model table with the input's
 * fields (rebased), a buffers vector with one more buffer (the plan's words) and a metadata vector
 * with the new entry (an entry of the same name already there is dropped: TFLM would read the
 * last). FlatBuffers offsets only point forward, so the new tables precede what they refer to.
 * The input's old Model table stays in the copy, unreferenced. A Model table with fields this
 * schema does not know is refused rather than rewritten without them.
 */
public final class TflmOfflinePlan {
    /** The format version Berth writes (TFLM ignores it; Vela writes 0 too). */
    static final int VERSION = 0;
    private static final int MODEL_FIELDS = 8;

    private TflmOfflinePlan() {
    }

    /** The offsets TFLM's offline plan gets from Berth's plan: planned, non-variable tensors in the arena. */
    public static int[] offsets(ImportedTflite m, Plan plan) {
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
                    throw new IllegalStateException("planned tensor " + e.label() + " has no buffer in " + m.arenaSpace());
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
            throw BerthException.invalid(what, "cannot read " + what + ": " + e.getMessage());
        }
    }

    /** The bytes of {@code original} (the file {@code m} was read from) with {@code offsets} as its offline plan. */
    public static byte[] write(ByteBuffer original, String what, TfliteModel m, int[] offsets) {
        ByteBuffer in = original.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        TfliteVerifier v = TfliteVerifier.of(in, what);
        TfliteModel again = TfliteReader.read(in, what);
        if (again.tensorCount() != m.tensorCount() || again.subgraphs().size() != m.subgraphs().size()) {
            throw BerthException.invalid(what, what + ": the file changed since it was planned");
        }
        if (offsets.length != m.tensorCount()) {
            throw new IllegalArgumentException(offsets.length + " offsets for " + m.tensorCount() + " tensors");
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

        // the head's layout
        int modelVt = 8;
        int modelVtSize = 4 + 2 * MODEL_FIELDS;
        int modelTable = modelVt + modelVtSize; // 28: 4-aligned
        int modelSize = 4 + 4 * MODEL_FIELDS;
        long buffersVec = modelTable + modelSize;
        long metadataVec = buffersVec + 4 + 4L * (buffers.length + 1);
        long metaVt = metadataVec + 4 + 4L * (keep.size() + 1);
        long metaTable = metaVt + 8;
        long nameStr = metaTable + 12;
        long bufVt = align(nameStr + 4 + name.length + 1, 4);
        long bufTable = bufVt + 8;
        long dataVec = align(bufTable + 8 + 4, 16) - 4; // the data itself starts 16-aligned
        long shift = align(dataVec + 4 + 4L * words.length, 16);
        if (shift + in.limit() > TfliteReader.MAX_FILE) {
            throw BerthException.invalid(what, what + ": the model with its plan would pass 2^31-1 bytes");
        }
        ByteBuffer out = ByteBuffer.allocate((int) (shift + in.limit())).order(ByteOrder.LITTLE_ENDIAN);
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
        // buffers: the input's, then the plan's
        out.putInt((int) buffersVec, buffers.length + 1);
        for (int j = 0; j <= buffers.length; j++) {
            long p = buffersVec + 4 + 4L * j;
            long to = j < buffers.length ? buffers[j] + shift : bufTable;
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
        out.putShort((int) bufVt, (short) 6);
        out.putShort((int) bufVt + 2, (short) 8);
        out.putShort((int) bufVt + 4, (short) 4);
        out.putInt((int) bufTable, (int) (bufTable - bufVt));
        out.putInt((int) bufTable + 4, (int) (dataVec - (bufTable + 4)));
        out.putInt((int) dataVec, 4 * words.length);
        for (int w = 0; w < words.length; w++) {
            out.putInt((int) (dataVec + 4 + 4L * w), words[w]);
        }
        out.put((int) shift, in.duplicate().position(0), 0, in.limit());
        byte[] bytes = out.array();
        check(bytes, what, m, words);
        return bytes;
    }

    /** The written model reads back as the input with the plan: same tensors as TFLM sees them, the words given. */
    private static void check(byte[] bytes, String what, TfliteModel m, int[] words) {
        TfliteModel back = TfliteReader.read(ByteBuffer.wrap(bytes), what + " (with its offline plan)");
        if (back.offlinePlan().isEmpty() || !Arrays.equals(back.offlinePlan().get(), words)
                || back.tensorCount() != m.tensorCount() || back.bufferBytes().length != m.bufferBytes().length + 1
                || !Arrays.equals(Arrays.copyOf(back.bufferBytes(), m.bufferBytes().length), m.bufferBytes())) {
            throw new IllegalStateException("the model written with its offline plan does not read back as written");
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
