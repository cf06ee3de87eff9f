package dev.berth.io;

import dev.berth.failure.BerthException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The kinds of file {@code berth plan} reads, told by their content; the name's extension is
 * only a hint (contract §7, "What a file is"). {@link #of} is the rule:
 * <ul>
 *   <li>the content is recognised ({@link #byContent}) and the extension names no kind, or the
 *       same one: that kind ({@code model.bin} holding an ONNX model is read as one);</li>
 *   <li>the content is recognised and the extension names another kind (a JSON file named
 *       {@code .onnx}): {@code invalid-input} naming both, since Berth cannot tell which is meant;</li>
 *   <li>the content is not recognised (empty, truncated, damaged) or cannot be read: the kind
 *       the extension names, whose reader then says what is wrong, as it always did; with no
 *       such extension, {@code invalid-input} saying the file is none of the kinds, or, for a
 *       file that cannot be read, a workload (whose reader says why).</li>
 * </ul>
 */
public enum InputKind {
    WORKLOAD(".json", "a Berth workload", "JSON: '{' or '[' first"),
    ONNX(".onnx", "an ONNX model", "protobuf: its fields are those of an ONNX ModelProto"),
    TFLITE(".tflite", "a TensorFlow Lite model", "FlatBuffers: 'TFL3' at byte 4"),
    MINIMALLOC_CSV(".csv", "a MiniMalloc CSV", "its first line is a header such as id,lower,upper,size");

    private final String extension;
    private final String what;
    private final String evidence;

    InputKind(String extension, String what, String evidence) {
        this.extension = extension;
        this.what = what;
        this.evidence = evidence;
    }

    /** The extension that names this kind ({@code .onnx}). */
    public String extension() {
        return extension;
    }

    /** For messages: {@code an ONNX model}. */
    public String what() {
        return what;
    }

    /** Bytes read from the start of a file to tell a text kind or TensorFlow Lite. */
    private static final int PREFIX = 4096;
    /** Top-level fields of a protobuf read at most; past them a file whose fields were all ONNX's is taken as ONNX. */
    private static final int MAX_FIELDS = 100_000;
    /** ONNX {@code ModelProto}'s fields: number and wire type (0 varint, 2 length-delimited). */
    private static final Set<Integer> MODEL_FIELDS = Set.of(1 << 3, 2 << 3 | 2, 3 << 3 | 2, 4 << 3 | 2, 5 << 3,
            6 << 3 | 2, 7 << 3 | 2, 8 << 3 | 2, 14 << 3 | 2, 20 << 3 | 2, 25 << 3 | 2);

    /** The kind {@code file}'s extension names (case-insensitive), if any. */
    public static Optional<InputKind> byName(Path file) {
        Path name = file.getFileName();
        String n = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(k -> n.endsWith(k.extension)).findFirst();
    }

    /** The kind {@code file}'s content shows, if it shows one; empty too when it cannot be read. */
    public static Optional<InputKind> byContent(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            ByteBuffer head = ByteBuffer.allocate((int) Math.min(size, PREFIX));
            while (head.hasRemaining() && ch.read(head) >= 0) {
                // read the prefix whole
            }
            head.flip();
            Optional<InputKind> k = byPrefix(head);
            if (k.isPresent()) {
                return k;
            }
            return size > 0 && isModelProto(ch.map(FileChannel.MapMode.READ_ONLY, 0, size)) ? Optional.of(ONNX)
                    : Optional.empty();
        } catch (IOException | RuntimeException e) {
            // a directory, a file that vanished or cannot be mapped: the reader the name picks says why
            return Optional.empty();
        }
    }

    /** TensorFlow Lite's file identifier, JSON's first character, a MiniMalloc header: from the first bytes. */
    static Optional<InputKind> byPrefix(ByteBuffer head) {
        if (head.remaining() >= 8 && head.get(4) == 'T' && head.get(5) == 'F' && head.get(6) == 'L' && head.get(7) == '3') {
            return Optional.of(TFLITE);
        }
        int i = 0;
        if (head.remaining() >= 3 && (head.get(0) & 0xff) == 0xEF && (head.get(1) & 0xff) == 0xBB
                && (head.get(2) & 0xff) == 0xBF) {
            i = 3;
        }
        int start = i;
        while (i < head.remaining() && (head.get(i) == ' ' || head.get(i) == '\t' || head.get(i) == '\r'
                || head.get(i) == '\n')) {
            i++;
        }
        if (i < head.remaining() && (head.get(i) == '{' || head.get(i) == '[')) {
            return Optional.of(WORKLOAD);
        }
        int end = start;
        while (end < head.remaining() && head.get(end) != '\n') {
            end++;
        }
        byte[] line = new byte[end - start];
        head.get(start, line);
        return MiniMallocCsv.isHeader(new String(line, StandardCharsets.UTF_8)) ? Optional.of(MINIMALLOC_CSV)
                : Optional.empty();
    }

    /**
     * Whether {@code data} is a sequence of well-formed protobuf fields to its last byte, the first
     * of them one of {@code ModelProto}'s (number and wire type). Only the top level is walked:
     * the importer checks the rest.
     */
    static boolean isModelProto(ByteBuffer data) {
        int pos = 0;
        int limit = data.limit();
        for (int fields = 0; pos < limit; fields++) {
            if (fields == MAX_FIELDS) {
                return true;
            }
            long tag = varint(data, pos);
            if (tag < 0) {
                return false;
            }
            pos += varintLength(data, pos);
            int wire = (int) (tag & 7);
            long number = tag >>> 3;
            if (number < 1 || number > (1 << 29) - 1 || (fields == 0 && !MODEL_FIELDS.contains((int) tag))) {
                return false;
            }
            long skip;
            switch (wire) {
                case 0 -> skip = varintLength(data, pos);
                case 1 -> skip = 8;
                case 2 -> {
                    long len = varint(data, pos);
                    if (len < 0) {
                        return false;
                    }
                    pos += varintLength(data, pos);
                    skip = len;
                }
                case 5 -> skip = 4;
                default -> {
                    return false;
                }
            }
            if (skip < 0 || skip > limit - pos) {
                return false;
            }
            pos += (int) skip;
        }
        return true;
    }

    /** The varint at {@code pos} (at most 10 bytes, within the buffer), or -1; values past 2^63-1 are -1 too (a length or tag never is). */
    private static long varint(ByteBuffer data, int pos) {
        long v = 0;
        for (int i = 0; i < 10 && pos + i < data.limit(); i++) {
            int b = data.get(pos + i) & 0xff;
            if (i == 9 && b > 0) {
                return -1;
            }
            v |= (long) (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        return -1;
    }

    /** The bytes of the varint at {@code pos}, or -1 when it does not end within 10 bytes and the buffer. */
    private static int varintLength(ByteBuffer data, int pos) {
        for (int i = 0; i < 10 && pos + i < data.limit(); i++) {
            if ((data.get(pos + i) & 0x80) == 0) {
                return i + 1;
            }
        }
        return -1;
    }

    /**
     * What {@code file} is, by the rule of this class; {@code invalid-input} at the file when its
     * content and its name disagree, or when neither says.
     */
    public static InputKind of(Path file) {
        Optional<InputKind> named = byName(file);
        Optional<InputKind> seen = byContent(file);
        if (seen.isPresent()) {
            if (named.isPresent() && named.get() != seen.get()) {
                InputKind n = named.get();
                InputKind c = seen.get();
                throw BerthException.invalid(file.toString(), file + ": the name says " + n.what + " (" + n.extension
                        + ") but the content is " + c.what + " (" + c.evidence + "); Berth does not guess which is "
                        + "meant: give the file a name that ends in " + c.extension + " to read it as " + c.what);
            }
            return seen.get();
        }
        if (named.isPresent()) {
            return named.get();
        }
        if (!Files.isRegularFile(file)) {
            // missing or a directory: the workload reader says so, as for any name
            return WORKLOAD;
        }
        throw BerthException.invalid(file.toString(), file + ": Berth cannot tell what this file is: its content is "
                + "none of " + describeAll() + ", and its name ends in none of .json, .onnx, .tflite, .csv");
    }

    private static String describeAll() {
        StringBuilder sb = new StringBuilder();
        InputKind[] all = values();
        for (int i = 0; i < all.length; i++) {
            sb.append(i == 0 ? "" : i == all.length - 1 ? " or " : ", ").append(all[i].what).append(" (")
                    .append(all[i].evidence).append(')');
        }
        return sb.toString();
    }
}
