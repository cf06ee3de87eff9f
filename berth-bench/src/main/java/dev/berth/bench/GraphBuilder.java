package dev.berth.bench;

import dev.berth.arith.Checked;
import dev.berth.schedule.Graph;
import dev.berth.schedule.Reuse;
import dev.berth.schedule.Role;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds a weightless {@link Graph} operator by operator, in the order the generator defines them
 * (that order is the graph's file order): graph inputs, then operators that each write one tensor
 * named after the operator, then the tensors marked as graph outputs. An elementwise operator
 * declares an in-place pair over each input of its own size (the search takes one only where the
 * input dies there and {@code InPlace} allows it).
 */
final class GraphBuilder {
    /** Bytes per element: the generated graphs are float32. */
    static final long ELEMENT = 4;

    private final String name;
    private final List<Graph.Buffer> inputs = new ArrayList<>();
    private final List<Graph.Operator> operators = new ArrayList<>();
    private final Map<String, Long> bytes = new HashMap<>();
    private final List<String> produced = new ArrayList<>();
    private final Set<String> outputs = new HashSet<>();

    GraphBuilder(String name) {
        this.name = name;
    }

    /** The bytes of a float32 tensor of {@code channels} x {@code height} x {@code width}. */
    static long tensor(long channels, long height, long width) {
        return Checked.multiply(Checked.multiply(Checked.multiply(channels, height), width), ELEMENT);
    }

    /** A graph input of {@code size} bytes; returns its name. */
    String input(String buffer, long size) {
        inputs.add(new Graph.Buffer(buffer, size, Role.INPUT));
        bytes.put(buffer, size);
        return buffer;
    }

    /** Operator {@code op} reads {@code reads} and writes one tensor of {@code size} bytes, named {@code op}. */
    String op(String op, List<String> reads, long size) {
        return add(op, reads, size, false);
    }

    /**
     * An elementwise operator: as {@link #op}, and its output may be written over any input of the
     * same size ({@link Reuse#ELEMENTWISE}).
     */
    String elementwise(String op, List<String> reads, long size) {
        return add(op, reads, size, true);
    }

    private String add(String op, List<String> reads, long size, boolean inPlace) {
        List<String> distinct = List.copyOf(new LinkedHashSet<>(reads));
        List<Graph.Overwrite> pairs = new ArrayList<>();
        if (inPlace) {
            for (String in : distinct) {
                if (bytes.get(in) == size) {
                    pairs.add(new Graph.Overwrite(op, in, Reuse.ELEMENTWISE));
                }
            }
        }
        operators.add(new Graph.Operator(op, distinct, List.of(op), pairs));
        bytes.put(op, size);
        produced.add(op);
        return op;
    }

    long bytes(String buffer) {
        return bytes.get(buffer);
    }

    /** Marks {@code buffer}, written by an operator, as a graph output (live to the end). */
    void output(String buffer) {
        outputs.add(buffer);
    }

    /** The graph, aligned to {@code alignment} bytes, with no kept chains. */
    Graph build(long alignment) {
        List<Graph.Buffer> buffers = new ArrayList<>(inputs);
        for (String b : produced) {
            buffers.add(new Graph.Buffer(b, bytes.get(b), outputs.contains(b) ? Role.OUTPUT : Role.INTERMEDIATE));
        }
        return new Graph(name, alignment, buffers, operators, List.of());
    }
}
