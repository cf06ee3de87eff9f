package dev.berth.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.berth.text.Visible;
import dev.berth.schedule.Order;
import dev.berth.schedule.Schedule;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What {@code plan} prints of a workload with operators: the order, the shared pairs, and better settings. */
final class OrderSummary {
    /** Names printed of a long order; the rest is counted. */
    static final int NAMES = 24;

    private OrderSummary() {
    }

    /**
     * The text lines: the operators' order and what its peak of live bytes is worth, the order itself
     * when it was chosen (order best), the shared pairs, and, when other settings would lower the peak,
     * one line saying which and by how much (that line alone for a model planned as imported).
     */
    static String render(OperatorOptions.Chosen c) {
        Schedule s = c.schedule();
        StringBuilder sb = new StringBuilder();
        c.better().ifPresent(b -> sb.append(settings(c, b)).append(": peak live ").append(bytes(b.peak()))
                .append(String.format(Locale.ROOT, ", %.1f %% less", 100.0 * (s.peak() - b.peak()) / s.peak()))
                .append('\n'));
        if (!c.lowered()) {
            return sb.toString(); // a model planned as imported: only what other settings would save
        }
        String hint = sb.toString();
        sb.setLength(0);
        sb.append("operators: ").append(s.order().size()).append(", order ").append(c.order().id()).append(", in-place ")
                .append(c.inPlace().id()).append(": peak live ").append(bytes(s.peak())).append(", ")
                .append(s.proved() ? "optimal" : "every order at in-place " + c.inPlace().id() + ": at least "
                        + bytes(s.bound())
                        + (s.openSegments() == 0 ? "" : " (" + s.openSegments() + " of " + s.segments()
                        + " segments out of search nodes)"))
                .append(s.peak() == s.filePeak() ? "" : "; the file order without reuse: " + bytes(s.filePeak()))
                .append('\n');
        if (c.order() == Order.BEST) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < s.order().size() && i < NAMES; i++) {
                names.add(Visible.text(s.order().get(i)));
            }
            sb.append("  order: ").append(String.join(", ", names))
                    .append(s.order().size() > NAMES ? ", ... (" + (s.order().size() - NAMES) + " more)" : "").append('\n');
        }
        if (!s.pairs().isEmpty()) {
            List<String> pairs = new ArrayList<>();
            for (int i = 0; i < s.pairs().size() && i < NAMES; i++) {
                Schedule.Pair p = s.pairs().get(i);
                pairs.add(Visible.text(p.output()) + " over " + Visible.text(p.input()) + " (" + Visible.text(p.operator())
                        + ", " + p.reason().id() + ")");
            }
            sb.append("  shared pairs (").append(s.pairs().size()).append("): ").append(String.join("; ", pairs))
                    .append(s.pairs().size() > NAMES ? "; ... (" + (s.pairs().size() - NAMES) + " more)" : "")
                    .append('\n');
        }
        return sb.append(hint).toString();
    }

    /** The settings that differ: {@code order best}, {@code elementwise in-place}, or both. */
    private static String settings(OperatorOptions.Chosen c, OperatorOptions.Better b) {
        List<String> parts = new ArrayList<>();
        if (b.order() != c.order()) {
            parts.add("order " + b.order().id());
        }
        if (b.inPlace() != c.inPlace()) {
            parts.add(b.inPlace().id() + " in-place");
        }
        return String.join(", ", parts);
    }

    private static String bytes(long b) {
        return String.format(Locale.ROOT, "%,d B", b);
    }

    /** The {@code schedule} object of {@code plan --json} (§7). */
    static void writeJson(JsonGenerator g, OperatorOptions.Chosen c) throws IOException {
        Schedule s = c.schedule();
        g.writeStartObject();
        g.writeStringField("order", c.order().id());
        g.writeStringField("inPlace", c.inPlace().id());
        g.writeNumberField("filePeak", s.filePeak());
        g.writeNumberField("peak", s.peak());
        g.writeNumberField("bound", s.bound());
        g.writeBooleanField("proved", s.proved());
        g.writeNumberField("nodes", s.nodes());
        g.writeArrayFieldStart("pairs");
        for (Schedule.Pair p : s.pairs()) {
            g.writeStartObject();
            g.writeStringField("output", p.output());
            g.writeStringField("input", p.input());
            g.writeStringField("operator", p.operator());
            g.writeStringField("reason", p.reason().id());
            g.writeEndObject();
        }
        g.writeEndArray();
        if (c.better().isPresent()) {
            OperatorOptions.Better b = c.better().get();
            g.writeObjectFieldStart("better");
            g.writeStringField("order", b.order().id());
            g.writeStringField("inPlace", b.inPlace().id());
            g.writeNumberField("peak", b.peak());
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
