package dev.berth.cli.report;

import dev.berth.text.Visible;

import java.util.Locale;

/** Escaping for HTML and for JSON inside a {@code <script>} element, and short number formats. */
public final class Text {
    private Text() {
    }

    /**
     * Escapes text for an HTML text node or a quoted attribute; a control character other than
     * newline and tab is written as its code ({@link Visible}), never raw.
     */
    static String html(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> {
                    // control characters (NUL among them) are not HTML text: shown as their code, as JSON writes them
                    if (Character.isISOControl(c) && c != '\n' && c != '\t') {
                        Visible.code(sb, c);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }

    /**
     * A JSON string literal that is also safe inside a {@code <script>} element: {@code <},
     * {@code >}, {@code &}, the JavaScript line separators and every control character (DEL and
     * the C1 codes too, as in Berth's other JSON output) are written as {@code \}{@code uXXXX}.
     */
    static String json(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (Character.isISOControl(c) || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                        Visible.code(sb, c);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    /** A pixel coordinate rounded to two decimals, trailing zeros dropped ({@code 12.5}, {@code 40}). */
    static String px(double v) {
        long h = Math.round(v * 100);
        if (h == 0) {
            return "0";
        }
        StringBuilder sb = new StringBuilder(12);
        if (h < 0) {
            sb.append('-');
            h = -h;
        }
        sb.append(h / 100);
        long f = h % 100;
        if (f != 0) {
            sb.append('.').append(f / 10);
            if (f % 10 != 0) {
                sb.append(f % 10);
            }
        }
        return sb.toString();
    }

    /** A short size for axis labels: {@code 160 KiB}, {@code 1.5 MiB}, {@code 57 B}. */
    public static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int u = 0;
        double v = bytes / 1024.0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        String num = v == Math.rint(v) ? Long.toString((long) v)
                : String.format(Locale.ROOT, v < 10 ? "%.2f" : v < 100 ? "%.1f" : "%.0f", v);
        return num + " " + units[u];
    }

    /** {@code 0x2_8000}-style hex is hard to scan in a chart; plain {@code 0x28000}. */
    static String hex(long v) {
        return "0x" + Long.toHexString(v).toUpperCase(Locale.ROOT);
    }

    /** Exact bytes with a short IEC figure when it differs: {@code 163840 B (160 KiB)}. */
    static String bytes(long v) {
        return v < 1024 ? v + " B" : v + " B (" + size(v) + ")";
    }
}
