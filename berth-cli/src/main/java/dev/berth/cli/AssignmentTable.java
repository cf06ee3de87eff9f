package dev.berth.cli;

import dev.berth.text.Visible;
import dev.berth.arith.Sizes;
import dev.berth.artifact.Assignment;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * What {@code plan} prints for a workload whose buffers have candidate spaces: where they went,
 * the traffic cost against the lower bound and the two documented policies, and, with
 * {@code --show}, per buffer that missed its first choice, why.
 */
final class AssignmentTable {
    private AssignmentTable() {
    }

    static String render(Assignment a, Plan plan) {
        StringBuilder sb = new StringBuilder();
        Map<String, long[]> by = new LinkedHashMap<>(); // space -> {buffers, requested bytes, cost}
        // requested bytes by name, read once: a lookup per choice would scan the plan once per choice
        Map<String, Long> requested = new HashMap<>();
        for (PlannedBuffer b : plan.buffers()) {
            requested.putIfAbsent(b.name(), b.requested());
        }
        for (Assignment.Choice c : a.choices()) {
            long[] v = by.computeIfAbsent(c.space(), k -> new long[3]);
            v[0]++;
            v[1] += requested.getOrDefault(c.buffer(), 0L);
            v[2] += c.cost();
        }
        sb.append("spaces chosen for ").append(a.choices().size()).append(" buffers with candidate spaces:");
        for (Map.Entry<String, long[]> e : by.entrySet()) {
            sb.append(' ').append(Visible.text(e.getKey())).append(' ').append(e.getValue()[0]).append(" (")
                    .append(Sizes.human(e.getValue()[1])).append(", cost ").append(e.getValue()[2]).append(')');
        }
        sb.append('\n');
        // the buffers without candidates pay the same under every policy: compared is what the choice decides
        long pinned = a.pinnedCost();
        sb.append("traffic cost (accesses x bytes x accessCost) of the buffers with candidates; the others add ")
                .append(pinned).append('\n');
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"policy", "cost", "vs lower bound", "vs berth"});
        rows.add(new String[]{"berth", Long.toString(a.cost() - pinned), percent(a.cost(), a.lowerBound(), pinned), ""});
        for (Assignment.Baseline b : a.baselines()) {
            String name = b.policy() + (b.policy().equals("first-fit") ? " (TVM USMP)" : " (ExecuTorch banked_greedy)");
            OptionalLong c = b.cost();
            rows.add(new String[]{name, c.isPresent() ? Long.toString(c.getAsLong() - pinned) : "does not fit",
                    c.isPresent() ? percent(c.getAsLong(), a.lowerBound(), pinned) : "",
                    c.isPresent() ? percent(c.getAsLong(), a.cost(), pinned) : ""});
        }
        rows.add(new String[]{"lower bound", Long.toString(a.lowerBound() - pinned), "", ""});
        sb.append(Tables.render(rows));
        sb.append("berth's choice: ").append(switch (a.proof()) {
            case LOWER_BOUND -> "optimal (it equals the lower bound)";
            case SEARCH -> "optimal (a complete search over every assignment, each placed largest first)";
            case OPEN -> "not proved optimal; the least cost is in [" + (a.lowerBound() - pinned) + ", "
                    + (a.cost() - pinned) + "]";
        }).append('\n');
        return sb.toString();
    }

    /** {@code +12.3 %}: how much more {@code x} is than {@code base}, both less {@code pinned}; {@code =} when equal. */
    static String percent(long x, long base, long pinned) {
        if (x == base) {
            return "=";
        }
        if (base == pinned) {
            return "+inf";
        }
        return String.format(Locale.ROOT, "%+.1f %%", 100.0 * (x - base) / (base - pinned));
    }

    /** Per buffer not in its first candidate: the space it missed, the step and what held it there. */
    static String why(Assignment a) {
        StringBuilder sb = new StringBuilder();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"buffer", "in", "first choice", "why", "step", "held there", "by"});
        for (Assignment.Choice c : a.choices()) {
            if (c.why().isEmpty()) {
                continue;
            }
            Assignment.Why w = c.why().get();
            rows.add(new String[]{c.buffer(), c.space(), w.space(), w.reason().id(), Integer.toString(w.step()),
                    w.liveBytes() + " + " + w.reserved() + " of " + w.usable(), String.join(", ", w.holders())});
        }
        if (rows.size() > 1) {
            sb.append("buffers not in their first choice:\n").append(Tables.render(rows));
        }
        return sb.toString();
    }
}
