package dev.berth.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.berth.failure.BerthException;
import dev.berth.io.tflite.TflmScratch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a {@code --tflm-scratch} file (contract §5.1): the scratch buffers TFLM's kernels request,
 * {@code {"scratch": [{"size": 256, "first": 2, "last": 2}, ...]}}, in the order TFLM's kernels
 * request them (the order of TFLM's {@code RecordingMicroAllocator} / {@code expected/}'s
 * {@code scratch_buffers}). Strict as every Berth file: unknown or missing keys, duplicate keys,
 * a negative size or one above TFLM's 2^31-16, fractions, steps below 0 and {@code last < first} are
 * {@code invalid-input} naming the entry; whether the steps lie in the model's is checked against the
 * model ({@link TflmScratch#checkSteps}).
 */
public final class TflmScratchJson {
    /** More entries than this is refused before any is read (TFLM's kernels request a few per operator). */
    public static final int MAX_ENTRIES = 1 << 20;

    private TflmScratchJson() {
    }

    public static List<TflmScratch> read(Path file) {
        return read(Json.read(file), file.toString());
    }

    /** Reads the file's JSON; {@code what} names it in messages. */
    public static List<TflmScratch> read(JsonNode root, String what) {
        Json.root(root, what, Set.of("scratch"), Set.of("scratch"));
        JsonNode list = root.get("scratch");
        if (list.isArray() && list.size() > MAX_ENTRIES) {
            throw BerthException.invalid("scratch", what + ": scratch has " + list.size() + " entries, more than "
                    + MAX_ENTRIES);
        }
        List<JsonNode> entries = Json.array(list, "scratch");
        List<TflmScratch> out = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            String p = "scratch[" + i + "]";
            JsonNode e = Json.object(entries.get(i), p, Set.of("size", "first", "last"), Set.of("size", "first", "last"));
            long size = Json.size(e.get("size"), p + ".size");
            if (size > TflmScratch.MAX_SIZE) {
                throw BerthException.invalid(p + ".size", Long.toString(size), what + ": " + p + ".size: " + size
                        + " bytes is above the " + TflmScratch.MAX_SIZE + " TFLM's planner can hold (an int, rounded up to 16)");
            }
            int first = Json.integer(e.get("first"), p + ".first", 0);
            int last = Json.integer(e.get("last"), p + ".last", 0);
            if (last < first) {
                throw BerthException.invalid(p + ".last", Integer.toString(last), what + ": " + p + ".last " + last
                        + " is before its first step " + first + " (steps are inclusive: last >= first)");
            }
            out.add(new TflmScratch(size, first, last));
        }
        return List.copyOf(out);
    }
}
