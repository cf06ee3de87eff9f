package dev.berth.text;

/**
 * Text as Berth prints it: each control character (U+0000..U+001F, U+007F..U+009F: ESC, CR,
 * LF, TAB, DEL and the C1 codes among them) written as its code, a backslash, {@code u} and
 * four lower-case hex digits (<code>&#92;u001b</code> for ESC), never raw, so that a name read from an input
 * file cannot move a terminal's cursor, colour its text or start a line of its own. The one
 * rule of every plain-text output (tables, pictures, messages) and of the HTML report's text;
 * JSON output escapes its strings itself.
 */
public final class Visible {
    private Visible() {
    }

    /** {@code text} with each control character written as its code; {@code text} itself when it has none. */
    public static String text(String text) {
        int i = 0;
        while (i < text.length() && !Character.isISOControl(text.charAt(i))) {
            i++;
        }
        if (i == text.length()) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length() + 8).append(text, 0, i);
        for (; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c)) {
                code(sb, c);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Appends the code of {@code c} (<code>&#92;u001b</code> for ESC) to {@code sb} and returns it. */
    public static StringBuilder code(StringBuilder sb, char c) {
        String hex = Integer.toHexString(c);
        sb.append("\\u");
        for (int k = hex.length(); k < 4; k++) {
            sb.append('0');
        }
        return sb.append(hex);
    }
}
