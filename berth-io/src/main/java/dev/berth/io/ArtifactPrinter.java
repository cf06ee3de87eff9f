package dev.berth.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.PrettyPrinter;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Prints Berth's JSON for people: two-space indentation, {@code "key": value}, objects one
 * entry per line, arrays of objects one object per line, arrays of numbers on one line
 * ({@code "live": [0, 2]}). Stateful: one instance per generator.
 */
final class ArtifactPrinter implements PrettyPrinter {
    /** Per open container: true for an array whose elements are objects. */
    private final Deque<boolean[]> arrays = new ArrayDeque<>();
    private final Deque<Boolean> isArray = new ArrayDeque<>();
    private int depth;

    private void newline(JsonGenerator g) throws IOException {
        g.writeRaw('\n');
        for (int i = 0; i < depth; i++) {
            g.writeRaw("  ");
        }
    }

    @Override
    public void writeRootValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw('\n');
    }

    @Override
    public void writeStartObject(JsonGenerator g) throws IOException {
        if (!isArray.isEmpty() && isArray.peek()) {
            arrays.peek()[0] = true;
            newline(g);
        }
        g.writeRaw('{');
        isArray.push(false);
        depth++;
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
        isArray.pop();
        depth--;
        if (entries > 0) {
            newline(g);
        }
        g.writeRaw('}');
    }

    @Override
    public void writeStartArray(JsonGenerator g) throws IOException {
        g.writeRaw('[');
        isArray.push(true);
        arrays.push(new boolean[1]);
        depth++;
    }

    @Override
    public void beforeArrayValues(JsonGenerator g) {
        // an object element writes its own line break; numbers follow the bracket directly
    }

    @Override
    public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
        g.writeRaw(arrays.peek()[0] ? "," : ", ");
    }

    @Override
    public void writeEndArray(JsonGenerator g, int values) throws IOException {
        isArray.pop();
        boolean objects = arrays.pop()[0];
        depth--;
        if (objects) {
            newline(g);
        }
        g.writeRaw(']');
    }
}
