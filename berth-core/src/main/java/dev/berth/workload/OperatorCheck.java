package dev.berth.workload;

import dev.berth.failure.Require;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The checks of a workload's {@link Operators} against its buffers ({@link Workload}'s constructor). */
final class OperatorCheck {
    private OperatorCheck() {
    }

    /**
     * One use per buffer, in the buffers' order; each buffer in one space; the graph's rules
     * ({@link Operators.Listed#graph}, sizes aside: they are checked when planned, where the
     * reserved bytes are known); each pair in one space, untiled; each buffer over the listed
     * order's steps.
     */
    static void listed(String workload, List<BufferSpec> buffers, Operators.Listed listed) {
        List<BufferUse> uses = listed.uses();
        if (uses.size() != buffers.size()) {
            throw Require.invalid("operators.uses", uses.size() + " uses for "
                    + buffers.size() + " buffers; give one per buffer, in the buffers' order");
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < buffers.size(); i++) {
            BufferSpec b = buffers.get(i);
            if (!uses.get(i).buffer().equals(b.name())) {
                throw Require.invalid("operators.uses[" + i + "]", uses.get(i).buffer(), "names '"
                        + uses.get(i).buffer() + "', but buffers[" + i + "] is '" + b.name() + "'");
            }
            if (b.hasChoice()) {
                String at = "buffers[" + i + "].space";
                throw Require.invalid(at, "buffer '" + b.name() + "' has candidate spaces ("
                        + BufferSpec.names(b.candidates())
                        + "); in a workload with operators each buffer has one space");
            }
            index.put(b.name(), i);
        }
        listed.graph(workload, new long[buffers.size()]);
        for (int i = 0; i < uses.size(); i++) {
            List<Overwrite> ws = uses.get(i).overwrites();
            for (int j = 0; j < ws.size(); j++) {
                String at = "buffers[" + i + "].overwrites[" + j + "]";
                pairOf(buffers.get(i), buffers.get(index.get(ws.get(j).input())), at, at + ".input");
            }
        }
        Map<String, Lifetime> steps = listed.lifetimes();
        for (int i = 0; i < buffers.size(); i++) {
            BufferSpec b = buffers.get(i);
            Lifetime want = steps.get(b.name());
            if (!b.live().equals(want)) {
                String at = "buffers[" + i + "].live";
                throw Require.invalid(at, b.live().toString(), "buffer '" + b.name() + "' is live over "
                        + b.live() + ", but the listed order of the operators makes it " + want
                        + " (Operators.Listed.lifetimes gives every buffer's steps)");
            }
        }
    }

    /** The order names buffers of the workload; each pair is of two of them, in one space, untiled, once. */
    static void ordered(List<BufferSpec> buffers, Operators.Ordered ordered) {
        Map<String, BufferSpec> byName = new HashMap<>();
        for (BufferSpec b : buffers) {
            byName.put(b.name(), b);
        }
        for (int s = 0; s < ordered.order().size(); s++) {
            Operator op = ordered.order().get(s);
            for (int j = 0; j < op.reads().size(); j++) {
                known(byName, op.reads().get(j), "order[" + s + "].reads[" + j + "]");
            }
            for (int j = 0; j < op.writes().size(); j++) {
                known(byName, op.writes().get(j), "order[" + s + "].writes[" + j + "]");
            }
        }
        Set<String> outputs = new HashSet<>();
        Set<String> inputs = new HashSet<>();
        for (int k = 0; k < ordered.shared().size(); k++) {
            Shared p = ordered.shared().get(k);
            String at = "shared[" + k + "]";
            known(byName, p.output(), at + ".output");
            known(byName, p.input(), at + ".input");
            if (!outputs.add(p.output()) || !inputs.add(p.input())) {
                throw Require.invalid(at, p.output(), "'" + p.output() + "' over '" + p.input()
                        + "': each output is written over one input, and each input hosts one output");
            }
            pairOf(byName.get(p.output()), byName.get(p.input()), at + ".output", at + ".input");
        }
    }

    private static void known(Map<String, BufferSpec> byName, String name, String at) {
        if (!byName.containsKey(name)) {
            throw Require.invalid(at, name, "no buffer is named '" + name + "'");
        }
    }

    /** An output written over an input shares its offset: one space, and neither is tiled. */
    private static void pairOf(BufferSpec out, BufferSpec in, String outAt, String inAt) {
        if (out.tile().isPresent() || in.tile().isPresent()) {
            BufferSpec tiled = out.tile().isPresent() ? out : in;
            String at = tiled == out ? outAt : inAt;
            throw Require.invalid(at, tiled.name(), "buffer '" + tiled.name() + "' is tiled; a tiled "
                    + "buffer is not written over another, nor another over it");
        }
        if (out.hasChoice() || in.hasChoice() || !out.space().name().equals(in.space().name())) {
            throw Require.invalid(inAt, in.name(), "'" + out.name() + "' is in space "
                    + BufferSpec.names(out.candidates()) + ", '" + in.name() + "' in "
                    + BufferSpec.names(in.candidates()) + "; a buffer written over another is in its space");
        }
    }
}
