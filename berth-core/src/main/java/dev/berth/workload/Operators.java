package dev.berth.workload;

import dev.berth.failure.BerthException;
import dev.berth.failure.Failure;
import dev.berth.failure.InputDetail;
import dev.berth.failure.Require;
import dev.berth.schedule.Graph;
import dev.berth.schedule.Role;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a workload's steps come from (contract §5.3): the buffers' own {@code live} steps
 * ({@link None}), operators listed in a runnable order whose order and in-place pairs may still
 * be chosen ({@link Listed}), or a chosen order with its pairs ({@link Ordered}). In the last two,
 * step {@code i} is the {@code i}-th operator of the order and every buffer's steps follow from
 * the operators ({@link #lifetimes}).
 */
public sealed interface Operators {

    /** The steps are the buffers' own: a workload without operators. */
    record None() implements Operators {
    }

    /**
     * Operators in a runnable order (the file's), chains of operators that keep their relative
     * order, and per buffer of the workload, in its order, its role and the inputs it may be
     * written over. The buffers' steps are those of the listed order with no buffer written over
     * another; a search may choose another order and pairs ({@code dev.berth.schedule}).
     */
    record Listed(List<Operator> operators, List<List<String>> keepOrder, List<BufferUse> uses) implements Operators {
        public Listed {
            operators = Require.elements(operators, "operators");
            List<List<String>> chains = new ArrayList<>();
            for (int i = 0; i < Require.nonNull(keepOrder, "keepOrder").size(); i++) {
                chains.add(Require.elements(keepOrder.get(i), "keepOrder[" + i + "]"));
            }
            keepOrder = List.copyOf(chains);
            uses = Require.elements(uses, "uses");
        }

        /** Each buffer's steps in the listed order, by name. */
        public Map<String, Lifetime> lifetimes() {
            return Operators.lifetimes(operators, uses);
        }

        /**
         * The operator graph of these operators, named {@code name}, buffer {@code i} (of
         * {@link #uses}) reserving {@code reserved[i]} bytes (alignment 1: the bytes are reserved
         * already), each declared pair on the operator that writes its output. Every rule of
         * {@link Graph} is checked; a declared pair's failure names its buffer's path
         * ({@code buffers[i].overwrites[j]}), as the workload file has it.
         */
        public Graph graph(String name, long[] reserved) {
            Require.nonNull(reserved, "reserved");
            if (reserved.length != uses.size()) {
                throw new IllegalArgumentException(reserved.length + " sizes for " + uses.size() + " buffers");
            }
            Map<String, Integer> writer = new HashMap<>();
            for (int o = 0; o < operators.size(); o++) {
                for (String w : operators.get(o).writes()) {
                    writer.putIfAbsent(w, o);
                }
            }
            List<List<Graph.Overwrite>> pairs = new ArrayList<>();
            List<List<String>> from = new ArrayList<>();
            for (int o = 0; o < operators.size(); o++) {
                pairs.add(new ArrayList<>());
                from.add(new ArrayList<>());
            }
            List<Graph.Buffer> buffers = new ArrayList<>(uses.size());
            for (int i = 0; i < uses.size(); i++) {
                BufferUse u = uses.get(i);
                buffers.add(new Graph.Buffer(u.buffer(), reserved[i], u.role()));
                Integer o = writer.get(u.buffer());
                for (int j = 0; j < u.overwrites().size() && o != null; j++) {
                    String at = "buffers[" + i + "].overwrites[" + j + "]";
                    pairs.get(o).add(new Graph.Overwrite(u.buffer(), u.overwrites().get(j).input(),
                            u.overwrites().get(j).reason()));
                    from.get(o).add(at);
                }
            }
            List<Graph.Operator> ops = new ArrayList<>(operators.size());
            for (int o = 0; o < operators.size(); o++) {
                Operator op = operators.get(o);
                ops.add(new Graph.Operator(op.name(), op.reads(), op.writes(), pairs.get(o)));
            }
            Graph g;
            try {
                g = new Graph(name, 1, buffers, ops, keepOrder);
            } catch (BerthException e) {
                throw atBuffer(e, from);
            }
            for (int i = 0; i < uses.size(); i++) {
                BufferUse u = uses.get(i);
                if (!u.overwrites().isEmpty() && !writer.containsKey(u.buffer())) {
                    String at = "buffers[" + i + "].overwrites[0]";
                    throw Require.invalid(at, u.buffer(), "'" + u.buffer() + "' is written by no "
                            + "operator; a buffer is written over an input of the operator that writes it");
                }
            }
            return g;
        }

        /** A failure at {@code operators[o].overwrites[k]} (the graph's path) moved to the buffer that declared it. */
        private static BerthException atBuffer(BerthException e, List<List<String>> from) {
            if (!(e.failure() instanceof Failure.InvalidInput in) || in.path().isEmpty()) {
                return e;
            }
            String path = in.path().get();
            for (int o = 0; o < from.size(); o++) {
                for (int k = 0; k < from.get(o).size(); k++) {
                    String graphAt = "operators[" + o + "].overwrites[" + k + "]";
                    if (path.equals(graphAt) || path.startsWith(graphAt + ".")) {
                        String rest = path.substring(graphAt.length());
                        // the buffer declaring the pair is its output: the output's path is the pair's own
                        String fileAt = from.get(o).get(k) + (rest.equals(".output") ? "" : rest);
                        String message = in.message().startsWith(path) ? fileAt + in.message().substring(path.length())
                                : in.message();
                        InputDetail moved = in.detail() instanceof InputDetail.Given g
                                ? new InputDetail.Given(fileAt, g.text()) : new InputDetail.At(fileAt);
                        return new BerthException(new Failure.InvalidInput(message, moved));
                    }
                }
            }
            return e;
        }
    }

    /**
     * A chosen order of operators (step {@code i} is {@code order.get(i)}) and the in-place pairs
     * taken in it, each output at the offset of the input it is written over.
     */
    record Ordered(List<Operator> order, List<Shared> shared) implements Operators {
        public Ordered {
            order = Require.elements(order, "order");
            shared = Require.elements(shared, "shared");
        }

        /** The input each shared output is written over, by output name. */
        public Map<String, String> sharesWith() {
            Map<String, String> m = new LinkedHashMap<>();
            for (Shared s : shared) {
                m.put(s.output(), s.input());
            }
            return m;
        }
    }

    /**
     * Each buffer's steps when {@code order} runs, operator {@code i} at step {@code i} (contract
     * §5.3): a graph input from step 0 to its last reader (step 0 when nobody reads it); an
     * intermediate from its writer to its last reader (its writer's step when nobody reads it);
     * a graph output from its writer to the last step; constants and variables over every step.
     * With no operator there is one step, 0. Names the operators do not know are live over step 0
     * until the workload's own checks report them.
     */
    public static Map<String, Lifetime> lifetimes(List<Operator> order, List<BufferUse> uses) {
        Map<String, Integer> writer = new HashMap<>();
        Map<String, Integer> lastReader = new HashMap<>();
        for (int s = 0; s < order.size(); s++) {
            for (String w : order.get(s).writes()) {
                writer.putIfAbsent(w, s);
            }
            for (String r : order.get(s).reads()) {
                lastReader.put(r, s);
            }
        }
        int end = Math.max(0, order.size() - 1);
        Map<String, Lifetime> out = new LinkedHashMap<>();
        for (BufferUse u : uses) {
            Role role = u.role();
            int first = role == Role.INTERMEDIATE || role == Role.OUTPUT ? writer.getOrDefault(u.buffer(), 0) : 0;
            int last = switch (role) {
                case INPUT, INTERMEDIATE -> Math.max(first, lastReader.getOrDefault(u.buffer(), first));
                case OUTPUT, CONSTANT, VARIABLE -> end;
            };
            out.put(u.buffer(), new Lifetime(first, last));
        }
        return out;
    }
}
