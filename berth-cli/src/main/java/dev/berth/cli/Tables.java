package dev.berth.cli;

import dev.berth.artifact.DescriptorEntry;
import dev.berth.text.Visible;
import dev.berth.artifact.Optimality;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.workload.Origin;
import dev.berth.artifact.SpaceMetrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The per-space summary table printed by {@code plan}. */
final class Tables {
    private Tables() {
    }

    /**
     * One row per space: its limits and metrics, the solver whose placement it uses and what is
     * proved about its high-water mark (a version 1 plan, which says nothing of it, shows the
     * plan's solver and no proof).
     */
    static String summary(Plan plan) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"space", "kind", "capacity", "high-water", "lower bound", "peak live", "eff.", "overhead",
                "reserve", "buffers", "solver", "proof"});
        for (Map.Entry<String, SpaceMetrics> e : plan.spaces().entrySet()) {
            SpaceMetrics m = e.getValue();
            long count = plan.buffers().stream().filter(b -> b.space().equals(e.getKey())).count();
            Optional<Optimality> o = m.optimality();
            rows.add(new String[]{e.getKey(), m.kind(),
                    m.capacity().isPresent() ? Long.toString(m.capacity().getAsLong())
                            : m.kind().equals("logical") ? "at deploy" : "-",
                    Long.toString(m.highWater()), o.map(x -> Long.toString(x.lowerBound())).orElse("-"),
                    Long.toString(m.peakLive()), String.format(Locale.ROOT, "%.1f%%", 100 * m.efficiency()),
                    Long.toString(m.generationOverhead()), Long.toString(m.runtimeReserve()), Long.toString(count),
                    o.map(x -> x.solver().id()).orElse(plan.solver().id()), o.map(x -> proof(x, m)).orElse("-")});
        }
        return render(rows);
    }

    /** {@code optimal (lower bound)}, {@code optimal (search)}, or the open bracket and why it is open. */
    static String proof(Optimality o, SpaceMetrics m) {
        return o.describe(m.highWater());
    }

    /**
     * A note for each space where the clock stopped a search (empty when none did): such a plan
     * may differ on another machine or under another load.
     */
    static String clockNotes(Plan plan, double timeLimit) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, SpaceMetrics> e : plan.spaces().entrySet()) {
            if (e.getValue().optimality().map(Optimality::timeLimited).orElse(false)) {
                sb.append("note: the time limit (").append(trim(timeLimit)).append(" s) stopped a search in space ")
                        .append(Visible.text(e.getKey())).append(" before its work budget did: this plan may differ on another ")
                        .append("machine or under another load (raise --time-limit)\n");
            }
        }
        return sb.toString();
    }

    private static String trim(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    /** Tiles, descriptors and generation-time allocations, when the plan has them. */
    static String tilesAndGeneration(Plan plan) {
        StringBuilder sb = new StringBuilder();
        Map<String, List<DescriptorEntry>> byTensor = new LinkedHashMap<>();
        for (DescriptorEntry d : plan.descriptors()) {
            byTensor.computeIfAbsent(d.of(), k -> new ArrayList<>()).add(d);
        }
        for (Map.Entry<String, List<DescriptorEntry>> e : byTensor.entrySet()) {
            List<PlannedBuffer> tileBuffers = plan.buffers().stream()
                    .filter(b -> b.origin() == Origin.TILE && b.of().equals(Optional.of(e.getKey()))).toList();
            PlannedBuffer first = tileBuffers.get(0);
            sb.append("tiles: ").append(Visible.text(e.getKey())).append(" in ").append(e.getValue().size())
                    .append(" tiles of ").append(e.getValue().get(0).transferBytes()).append(" bytes through ")
                    .append(Visible.text(first.space()))
                    .append(" (").append(tileBuffers.size()).append(" tile buffer").append(tileBuffers.size() == 1 ? "" : "s")
                    .append(" of ").append(first.reserved()).append(" bytes), one descriptor each\n");
        }
        for (PlannedBuffer b : plan.buffers()) {
            if (b.origin() == Origin.DESCRIPTOR_TABLE || b.origin() == Origin.INSTRUCTIONS) {
                sb.append("generation: ").append(Visible.text(b.name())).append(" in ").append(Visible.text(b.space()))
                        .append(", ")
                        .append(b.requested()).append(" bytes (reserved ").append(b.reserved()).append(") at offset ")
                        .append(b.offset()).append('\n');
            }
        }
        return sb.toString();
    }

    /**
     * The rows as a table, columns padded to their widest cell; every cell is written with its
     * control characters as codes ({@link Visible}), so a name cannot break the table.
     */
    static String render(List<String[]> given) {
        List<String[]> rows = given.stream().map(r -> Arrays.stream(r).map(Visible::text)
                .toArray(String[]::new)).toList();
        int cols = rows.get(0).length;
        int[] w = new int[cols];
        for (String[] r : rows) {
            for (int c = 0; c < cols; c++) {
                w[c] = Math.max(w[c], r[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            String[] r = rows.get(i);
            for (int c = 0; c < cols; c++) {
                boolean numeric = c > 1 && i > 0 && !r[c].isEmpty() && Character.isDigit(r[c].charAt(0));
                String cell = numeric ? " ".repeat(w[c] - r[c].length()) + r[c] : r[c] + " ".repeat(w[c] - r[c].length());
                sb.append(c == 0 ? "" : "  ").append(cell);
            }
            sb.append(System.lineSeparator().equals("\n") ? "\n" : System.lineSeparator());
            if (i == 0) {
                for (int c = 0; c < cols; c++) {
                    sb.append(c == 0 ? "" : "  ").append("-".repeat(w[c]));
                }
                sb.append('\n');
            }
        }
        return sb.toString().replaceAll(" +\n", "\n");
    }
}
