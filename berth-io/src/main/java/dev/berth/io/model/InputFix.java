package dev.berth.io.model;

import dev.berth.failure.BerthException;
import dev.berth.failure.Require;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code --input NAME=1x3x640x640} or {@code --input NAME=VALUE}. Which of the two it is
 * depends on the graph input: a scalar (rank 0) input takes a value, any other input a shape.
 *
 * @param name    the graph input's name
 * @param numbers the numbers given, in order
 * @param text    the option's text, for messages
 */
public record InputFix(String name, long[] numbers, String text) {

    /** True when a single number was given (a value for a scalar input, or a 1-D shape). */
    public boolean single() {
        return numbers.length == 1;
    }

    /** Parses the {@code --input} options; a name given twice or a malformed one is {@code invalid-input}. */
    public static Map<String, InputFix> parse(List<String> options) {
        Map<String, InputFix> m = new LinkedHashMap<>();
        for (String o : options) {
            InputFix f = parse(o);
            if (m.put(f.name(), f) != null) {
                throw Require.invalid("--input", o, "input '" + f.name() + "' is given twice");
            }
        }
        return m;
    }

    /** Parses one option text. The name is everything before the last '='. */
    public static InputFix parse(String text) {
        int eq = text.lastIndexOf('=');
        if (eq <= 0 || eq == text.length() - 1) {
            throw Require.invalid("--input", text, "expected NAME=DIMS (e.g. x=1x3x640x640) or NAME=VALUE "
                    + "for a scalar input (e.g. sr=16000), got '" + text + "'");
        }
        String name = text.substring(0, eq);
        String body = text.substring(eq + 1).strip();
        String[] parts = body.split("[xX]", -1);
        List<Long> nums = new ArrayList<>();
        for (String p : parts) {
            String s = p.strip();
            boolean digits = !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
            boolean negative = s.startsWith("-") && s.length() > 1 && s.substring(1).chars().allMatch(c -> c >= '0' && c <= '9');
            if (parts.length == 1 && negative) {
                nums.add(parseLong(s, text, name));
                continue;
            }
            if (!digits) {
                throw BerthException.invalid("--input", text, "--input " + name + ": '" + body + "' is not a shape like "
                        + "1x3x640x640 (whole numbers joined by 'x') nor a whole-number value");
            }
            nums.add(parseLong(s, text, name));
        }
        long[] n = new long[nums.size()];
        for (int i = 0; i < n.length; i++) {
            n[i] = nums.get(i);
        }
        return new InputFix(name, n, text);
    }

    private static long parseLong(String s, String text, String name) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw BerthException.invalid("--input", text, "--input " + name + ": " + s + " is outside -2^63..2^63-1");
        }
    }
}
