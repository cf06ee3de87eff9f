package dev.berth.cli;

import dev.berth.text.Visible;
import dev.berth.artifact.Plan;
import dev.berth.artifact.PlannedBuffer;
import dev.berth.artifact.SpaceMetrics;
import dev.berth.cli.report.Text;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The terminal picture of {@code plan --show}, after TFLM's {@code PrintMemoryPlan}: per space,
 * one line per step (consecutive steps grouped into one line when there are more than
 * {@link #MAX_ROWS}), addresses left to right over {@code [0, highWater)} with size and hex
 * labels on top, each cell showing the reservation that covers it (in a grouped line, the one
 * live at most of its steps there). Every line fits in the given width (plain ASCII).
 *
 * <p>Glyphs: the largest reservations (by bytes × steps) get a letter or digit each, as many
 * as the legend can name; the rest cycle through {@link #OTHERS} so that neighbours stay
 * apart, unnamed; fixed regions are {@code #},
 * descriptor tables {@code %}, instruction streams {@code =}; free is {@code .}.
 */
final class Picture {
    static final String GLYPHS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static final int MAX_ROWS = 40;
    static final char FREE = '.';
    static final String OTHERS = "+*~^";
    private static final String PEAK = " <peak";
    private static final int LEGEND_LINES = 6;

    private Picture() {
    }

    /** The narrowest picture: a terminal narrower than this gets this many columns (and wraps). */
    static final int MIN_WIDTH = 50;

    static String render(Plan plan, int width) {
        int w = Math.max(MIN_WIDTH, width);
        long steps = 1;
        for (PlannedBuffer b : plan.buffers()) {
            steps = Math.max(steps, (long) b.live().last() + 1);
        }
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, SpaceMetrics> e : plan.spaces().entrySet()) {
            List<PlannedBuffer> bs = new ArrayList<>();
            for (PlannedBuffer b : plan.buffers()) {
                if (b.space().equals(e.getKey()) && b.reserved() > 0) {
                    bs.add(b);
                }
            }
            if (bs.isEmpty()) {
                sb.append("space ").append(Visible.text(e.getKey())).append(" (").append(e.getValue().kind())
                        .append("): no reservations\n\n");
                continue;
            }
            space(sb, Visible.text(e.getKey()), e.getValue(), bs, steps, w);
        }
        return sb.toString();
    }

    /** One line of the picture: steps {@code first..last} (several when identical lines are collapsed), its cells. */
    private record Row(long first, long last, String cells, boolean peak) {
        String label() {
            return first == last ? Long.toString(first) : first + "-" + last;
        }
    }

    private static void space(StringBuilder sb, String name, SpaceMetrics m, List<PlannedBuffer> bs, long steps,
                              int width) {
        long high = m.highWater();
        long group = (steps + MAX_ROWS - 1) / MAX_ROWS;
        long lines = (steps + group - 1) / group;
        int longest = 0;
        for (long line = 0; line < lines; line++) {
            longest = Math.max(longest, label(line, group, steps).length());
        }
        Map<PlannedBuffer, Character> glyphs = glyphs(bs, width);
        int labelWidth = Math.max(6, longest + 2);
        List<Row> rows = rows(bs, glyphs, m.peakStep(), steps, group, high, columns(width, labelWidth));
        for (Row r : rows) {
            // a collapsed line's label ("0-203") may be longer than any single line's: make room for it
            if (r.label().length() + 2 > labelWidth) {
                labelWidth = Math.max(6, Long.toString(steps - 1).length() * 2 + 3);
                rows = rows(bs, glyphs, m.peakStep(), steps, group, high, columns(width, labelWidth));
                break;
            }
        }
        int cols = columns(width, labelWidth);

        wrap(sb, "space " + name + " (" + m.kind() + "): " + bs.size() + " reservations, high-water "
                + Text.size(high) + ", peak live " + Text.size(m.peakLive()) + " at step " + m.peakStep(), width);
        wrap(sb, "  efficiency " + String.format(Locale.ROOT, "%.1f%%", 100 * m.efficiency())
                + (m.capacity().isPresent() ? ", capacity " + Text.size(m.capacity().getAsLong()) : "")
                + "; one column = " + perColumn(high, cols)
                + (group == 1 ? ", one line = one step" : ", one line = " + group + " steps")
                + "; right edge = high-water", width);
        axis(sb, high, cols, labelWidth);
        for (Row r : rows) {
            String lbl = r.label();
            sb.append(" ".repeat(labelWidth - 1 - lbl.length())).append(lbl).append(" |").append(r.cells()).append('|')
                    .append(r.peak() ? PEAK : "").append('\n');
        }
        sb.append(" ".repeat(labelWidth)).append('+').append("-".repeat(cols)).append("+\n");
        legend(sb, bs, glyphs, width);
        sb.append('\n');
    }

    private static int columns(int width, int labelWidth) {
        return Math.max(20, width - labelWidth - 2 - PEAK.length());
    }

    /** The bytes one column stands for: exact below 1 KiB ({@code 1.50 B}), else to three figures. */
    static String perColumn(long high, int cols) {
        double per = (double) high / cols;
        if (per >= 1024) {
            return Text.size(Math.round(per));
        }
        return high % cols == 0 ? (high / cols) + " B" : String.format(Locale.ROOT, "%.2f B", per);
    }

    /**
     * The lines of the picture, consecutive lines with the same cells collapsed into one (its
     * label then spans their steps; it is marked as the peak's when any of them holds the peak step).
     */
    private static List<Row> rows(List<PlannedBuffer> bs, Map<PlannedBuffer, Character> glyphs, int peakStep,
                                  long steps, long group, long high, int cols) {
        List<Row> rows = new ArrayList<>();
        for (long s0 = 0; s0 < steps; s0 += group) {
            long s1 = Math.min(steps - 1, s0 + group - 1);
            char[] line = new char[cols];
            long[] bestSteps = new long[cols];
            long[] bestBytes = new long[cols];
            Arrays.fill(line, FREE);
            for (PlannedBuffer b : bs) {
                long k = Math.min(s1, b.live().last()) - Math.max(s0, b.live().first()) + 1;
                if (k <= 0) {
                    continue;
                }
                int c0 = column(b.offset(), high, cols);
                int c1 = Math.max(c0, (int) Math.min(cols - 1, Math.ceil((double) b.offset() / high * cols
                        + (double) b.reserved() / high * cols) - 1));
                for (int c = c0; c <= c1; c++) {
                    if (k > bestSteps[c] || (k == bestSteps[c] && b.reserved() > bestBytes[c])) {
                        bestSteps[c] = k;
                        bestBytes[c] = b.reserved();
                        line[c] = glyphs.get(b);
                    }
                }
            }
            String cells = new String(line);
            boolean peak = peakStep >= s0 && peakStep <= s1;
            if (!rows.isEmpty() && rows.get(rows.size() - 1).cells().equals(cells)) {
                Row last = rows.get(rows.size() - 1);
                rows.set(rows.size() - 1, new Row(last.first(), s1, cells, last.peak() || peak));
            } else {
                rows.add(new Row(s0, s1, cells, peak));
            }
        }
        return rows;
    }

    /** Size labels, hex labels and a ruler with {@code +} at each tick; ticks are powers of two at least 12 columns apart. */
    private static void axis(StringBuilder sb, long high, int cols, int labelWidth) {
        long tick = Long.highestOneBit(Math.max(1, (long) Math.ceil((double) high * 12 / cols)));
        if ((double) tick * cols / high < 12) {
            tick = tick <= Long.MAX_VALUE / 2 ? tick * 2 : tick;
        }
        char[] sizes = blank(labelWidth + cols + 2);
        char[] hexes = blank(labelWidth + cols + 2);
        char[] ruler = blank(labelWidth + cols + 2);
        "step".getChars(0, 4, ruler, labelWidth - 5);
        ruler[labelWidth] = '+';
        for (int c = 0; c < cols; c++) {
            ruler[labelWidth + 1 + c] = '-';
        }
        ruler[labelWidth + 1 + cols] = '+';
        int sizeEnd = 0;
        int hexEnd = 0;
        for (long a = 0; a < high; a += tick) {
            int pos = labelWidth + column(a, high, cols);
            ruler[pos] = '+';
            sizeEnd = put(sizes, pos, Text.size(a), sizeEnd);
            hexEnd = put(hexes, pos, "0x" + Long.toHexString(a).toUpperCase(Locale.ROOT), hexEnd);
            if (a > Long.MAX_VALUE - tick) {
                break;
            }
        }
        sb.append(new String(sizes).stripTrailing()).append('\n').append(new String(hexes).stripTrailing()).append('\n')
                .append(new String(ruler).stripTrailing()).append('\n');
    }

    private static char[] blank(int n) {
        char[] c = new char[n];
        Arrays.fill(c, ' ');
        return c;
    }

    /** Writes {@code text} at {@code pos} when it fits after {@code end} (one blank between labels); returns the new end. */
    private static int put(char[] line, int pos, String text, int end) {
        if (pos < end + 1 && end > 0 || pos + text.length() > line.length) {
            return end;
        }
        text.getChars(0, text.length(), line, pos);
        return pos + text.length();
    }

    private static int column(long address, long high, int cols) {
        return (int) Math.min(cols - 1, (long) ((double) address / high * cols));
    }

    private static String label(long row, long group, long steps) {
        long s0 = row * group;
        long s1 = Math.min(steps - 1, s0 + group - 1);
        return s0 == s1 ? Long.toString(s0) : s0 + "-" + s1;
    }

    /**
     * Letters for the largest reservations (bytes × steps), as many as there are glyphs and the
     * legend's {@link #LEGEND_LINES} lines of {@code width} columns list, given out in plan order;
     * {@link #OTHERS} for the rest.
     */
    static Map<PlannedBuffer, Character> glyphs(List<PlannedBuffer> bs, int width) {
        List<PlannedBuffer> named = new ArrayList<>();
        for (PlannedBuffer b : bs) {
            if (special(b) == 0) {
                named.add(b);
            }
        }
        named.sort(Comparator.comparingDouble((PlannedBuffer b) -> -(double) b.reserved()
                * ((long) b.live().last() - b.live().first() + 1)));
        int count = Math.min(GLYPHS.length(), named.size());
        Set<PlannedBuffer> lettered = new HashSet<>(named.subList(0, count));
        // the largest that the legend lists in full: drop the smallest lettered until it does
        while (count > 0 && legendLines(entries(bs, lettered), width).size() > LEGEND_LINES) {
            lettered.remove(named.get(--count));
        }
        Map<PlannedBuffer, Character> m = new HashMap<>();
        int next = 0;
        int other = 0;
        for (PlannedBuffer b : bs) {
            char s = special(b);
            m.put(b, s != 0 ? s : lettered.contains(b) ? GLYPHS.charAt(next++) : OTHERS.charAt(other++ % OTHERS.length()));
        }
        return m;
    }

    /** The legend's entries {@code x=name} of the lettered reservations, in plan order, lettered as {@link #glyphs} does. */
    private static List<String> entries(List<PlannedBuffer> bs, Set<PlannedBuffer> lettered) {
        List<String> entries = new ArrayList<>();
        for (PlannedBuffer b : bs) {
            if (lettered.contains(b)) {
                entries.add(GLYPHS.charAt(entries.size()) + "=" + Visible.text(b.name()));
            }
        }
        return entries;
    }

    /** The entries wrapped into lines of at most {@code width} columns (one entry longer than that on a line of its own). */
    private static List<String> legendLines(List<String> entries, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder cur = new StringBuilder("  ");
        for (String e : entries) {
            if (cur.length() > 2 && cur.length() + e.length() + 2 > width) {
                lines.add(cur.toString().stripTrailing());
                cur = new StringBuilder("  ");
            }
            cur.append(e).append("  ");
        }
        if (cur.length() > 2) {
            lines.add(cur.toString().stripTrailing());
        }
        return lines;
    }

    private static char special(PlannedBuffer b) {
        return switch (b.origin()) {
            case FIXED -> '#';
            case DESCRIPTOR_TABLE -> '%';
            case INSTRUCTIONS -> '=';
            default -> 0;
        };
    }

    /** The legend, wrapped to the width: every lettered reservation named ({@link #glyphs} letters no more than fit). */
    private static void legend(StringBuilder sb, List<PlannedBuffer> bs, Map<PlannedBuffer, Character> glyphs,
                               int width) {
        List<String> entries = new ArrayList<>();
        Map<Character, List<String>> specials = new LinkedHashMap<>();
        int others = 0;
        for (PlannedBuffer b : bs) {
            char g = glyphs.get(b);
            if (OTHERS.indexOf(g) >= 0) {
                others++;
            } else if (special(b) != 0) {
                specials.computeIfAbsent(g, k -> new ArrayList<>()).add(Visible.text(b.name()));
            } else {
                entries.add(g + "=" + Visible.text(b.name()));
            }
        }
        sb.append("legend:\n");
        for (String l : legendLines(entries, width)) {
            sb.append(fit(l, width)).append('\n');
        }
        List<String> tail = new ArrayList<>();
        if (others > 0) {
            tail.add("'" + OTHERS.substring(0, Math.min(others, OTHERS.length())) + "' " + others
                    + (others == 1 ? " smaller reservation" : " smaller reservations") + ", not named");
        }
        for (Map.Entry<Character, List<String>> e : specials.entrySet()) {
            String kind = e.getKey() == '#' ? "fixed" : e.getKey() == '%' ? "descriptor table" : "instructions";
            tail.add("'" + e.getKey() + "' " + kind + " (" + String.join(", ", e.getValue()) + ")");
        }
        tail.add("'.' free");
        wrap(sb, "  " + String.join("; ", tail), width);
    }

    /**
     * {@code text} in lines of at most {@code width} columns, broken at blanks, each line after the
     * first indented by four; a word longer than a line is cut with {@code ...}.
     */
    private static void wrap(StringBuilder sb, String text, int width) {
        int lead = text.length() - text.stripLeading().length();
        StringBuilder cur = new StringBuilder(text.substring(0, lead));
        int start = cur.length();
        for (String word : text.substring(lead).split(" ")) {
            if (cur.length() > start && cur.length() + 1 + word.length() > width) {
                sb.append(fit(cur.toString(), width)).append('\n');
                cur = new StringBuilder("    ");
                start = cur.length();
            }
            if (cur.length() > start) {
                cur.append(' ');
            }
            cur.append(word);
        }
        sb.append(fit(cur.toString(), width)).append('\n');
    }

    private static String fit(String s, int width) {
        return s.length() <= width ? s : s.substring(0, Math.max(0, width - 3)) + "...";
    }
}
