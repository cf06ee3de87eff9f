package dev.berth.cli;

import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The terminal picture of {@code plan --show}, after TFLM's {@code PrintMemoryPlan}: one line
 * per step (steps grouped when there are many), address left to right over
 * {@code [0, highWater)}, each column showing the reservation that covers it.
 */
final class Picture {
    private static final String GLYPHS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    private static final int MAX_ROWS = 48;

    private Picture() {
    }

    static String render(Plan plan, int width) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, SpaceMetrics> e : plan.spaces().entrySet()) {
            List<PlannedBuffer> bs = new ArrayList<>();
            for (PlannedBuffer b : plan.buffers()) {
                if (b.space().equals(e.getKey()) && b.reserved() > 0) {
                    bs.add(b);
                }
            }
            if (bs.isEmpty()) {
                continue;
            }
            space(sb, e.getKey(), e.getValue(), bs, Math.max(20, width - 12));
        }
        return sb.toString();
    }

    private static void space(StringBuilder sb, String name, SpaceMetrics m, List<PlannedBuffer> bs, int cols) {
        long high = m.highWater();
        int lastStep = 0;
        for (PlannedBuffer b : bs) {
            lastStep = Math.max(lastStep, b.live().last());
        }
        long steps = (long) lastStep + 1;
        long perRow = (steps + MAX_ROWS - 1) / MAX_ROWS;
        sb.append("space ").append(name).append(" (").append(m.kind()).append("): address 0 .. ").append(high)
                .append(" left to right, ").append(cols).append(" columns of ").append(Math.max(1, (high + cols - 1) / cols))
                .append(" bytes; ").append(perRow == 1 ? "one row per step" : perRow + " steps per row").append('\n');
        for (long row = 0; row * perRow < steps; row++) {
            long s0 = row * perRow;
            long s1 = Math.min(steps - 1, s0 + perRow - 1);
            char[] line = new char[cols];
            java.util.Arrays.fill(line, '.');
            for (int k = 0; k < bs.size(); k++) {
                PlannedBuffer b = bs.get(k);
                if (b.live().last() < s0 || b.live().first() > s1) {
                    continue;
                }
                int c0 = (int) Math.min(cols - 1, (long) ((double) b.offset() / high * cols));
                int c1 = (int) Math.min(cols - 1, (long) Math.ceil((double) (b.offset() + b.reserved()) / high * cols) - 1);
                char g = glyph(b, k);
                for (int c = c0; c <= Math.max(c0, c1); c++) {
                    line[c] = g;
                }
            }
            String label = s0 == s1 ? Long.toString(s0) : s0 + "-" + s1;
            sb.append(String.format("%9s |", label)).append(line).append("|\n");
        }
        sb.append("legend:");
        int shown = 0;
        for (int k = 0; k < bs.size() && shown < 24; k++, shown++) {
            PlannedBuffer b = bs.get(k);
            sb.append(' ').append(glyph(b, k)).append('=').append(b.name());
        }
        if (bs.size() > 24) {
            sb.append(" ... (").append(bs.size() - 24).append(" more; glyphs repeat)");
        }
        sb.append("; '#' fixed, '.' free\n\n");
    }

    private static char glyph(PlannedBuffer b, int k) {
        return switch (b.origin()) {
            case FIXED -> '#';
            case DESCRIPTOR_TABLE -> '%';
            case INSTRUCTIONS -> '=';
            default -> GLYPHS.charAt(k % GLYPHS.length());
        };
    }
}
