package dev.berth.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;

import java.io.IOException;
import java.util.Arrays;

/**
 * Prints Berth's JSON for people: two-space indentation, {@code "key": value}, objects one
 * entry per line, arrays of objects one object per line, arrays of numbers on one line
 * ({@code "live": [0, 2]}). Stateful: one instance per generator.
 */
final class ArtifactPrinter implements PrettyPrinter {
    /** Per open container, by depth: whether it is an array, and (for an array) whether its elements are objects. */
    private boolean[] isArray = new boolean[16];
    private boolean[] ofObjects = new boolean[16];
    private int depth;
    /** A line break and the indentation of each depth, made once. */
    private String[] breaks = new String[0];

    private void newline(JsonGenerator g) throws IOException {
        if (depth >= breaks.length) {
            String[] b = Arrays.copyOf(breaks, depth + 8);
            for (int i = breaks.length; i < b.length; i++) {
                b[i] = "\n" + "  ".repeat(i);
            }
            breaks = b;
        }
        g.writeRaw(breaks[depth]);
    }

    private void open(boolean array) {
        if (depth == isArray.length) {
            isArray = Arrays.copyOf(isArray, 2 * depth);
            ofObjects = Arrays.copyOf(ofObjects, 2 * depth);
        }
        isArray[depth] = array;
        ofObjects[depth] = false;
        depth++;
    }

    @Override
    public void writeRootValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw('\n');
    }

    @Override
    public void writeStartObject(JsonGenerator g) throws IOException {
        if (depth > 0 && isArray[depth - 1]) {
            ofObjects[depth - 1] = true;
            newline(g);
        }
        g.writeRaw('{');
        open(false);
    }

    @Override
    public void beforeObjectEntries(JsonGenerator g) throws IOException {
        newline(g);
    }

    @Override
    public void writeObjectFieldValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(": ");
    }

    @Override
    public void writeObjectEntrySeparator(JsonGenerator g) throws IOException {
        g.writeRaw(',');
        newline(g);
    }

    @Override
    public void writeEndObject(JsonGenerator g, int entries) throws IOException {
        depth--;
        if (entries > 0) {
            newline(g);
        }
        g.writeRaw('}');
    }

    @Override
    public void writeStartArray(JsonGenerator g) throws IOException {
        g.writeRaw('[');
        open(true);
    }

    @Override
    public void beforeArrayValues(JsonGenerator g) {
        // an object element writes its own line break; numbers follow the bracket directly
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(ofObjects[depth - 1] ? "," : ", ");
    }

    @Override
    public void writeEndArray(JsonGenerator g, int values) throws IOException {
        depth--;
        if (ofObjects[depth]) {
            newline(g);
        }
        g.writeRaw(']');
    }
}
