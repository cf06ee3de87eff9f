package dev.berth.arith;

import dev.berth.failure.Require;

import java.math.BigInteger;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses sizes, offsets and addresses as the contract writes them (§2): decimal, hexadecimal
 * ({@code 0x}), {@code _} between digits, and an optional IEC unit {@code B}, {@code KiB},
 * {@code MiB}, {@code GiB}, {@code TiB}, with or without a space (in hexadecimal a bare
 * {@code B} needs the space: {@code "0x1B"} is 27). Every rejection is
 * {@code invalid-input} naming the field path and the text.
 */
public final class Sizes {
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);
    private static final String[] UNITS = {"TiB", "GiB", "MiB", "KiB", "B"};
    private static final int[] SHIFTS = {40, 30, 20, 10, 0};

    private Sizes() {
    }

    /**
     * Parses {@code text} given at {@code path} (the field, named by every rejection); a null
     * {@code text} or {@code path} is a NullPointerException naming it.
     */
    public static long parse(String text, String path) {
        Require.nonNull(text, "text");
        Require.nonNull(path, "path");
        String s = text.strip();
        if (s.isEmpty()) {
            throw Require.invalid(path, text, "a size or address is needed, got an empty string");
        }
        int shift = 0;
        boolean hex = s.startsWith("0x") || s.startsWith("0X");
        for (int i = 0; i < UNITS.length; i++) {
            // in hexadecimal a B right after the digits is a digit ("0x1B" is 27); the byte unit needs a space
            boolean hexDigitB = hex && UNITS[i].equals("B")
                    && !Character.isWhitespace(s.charAt(Math.max(0, s.length() - 2)));
            if (s.endsWith(UNITS[i]) && !hexDigitB) {
                shift = SHIFTS[i];
                s = s.substring(0, s.length() - UNITS[i].length()).strip();
                break;
            }
        }
        if (shift == 0 && !s.isEmpty()) {
            String hint = siHint(s);
            if (hint != null) {
                throw Require.invalid(path, text, "'" + text
                        + "' uses a decimal (SI) unit; Berth counts in binary units: did you mean " + hint + "?");
            }
        }
        BigInteger magnitude = digits(s, text, path);
        BigInteger value = magnitude.shiftLeft(shift);
        if (value.compareTo(MAX) > 0) {
            throw Require.invalid(path, text, "'" + text + "' is " + value + " bytes, above the largest size 2^63-1 = "
                    + Long.MAX_VALUE);
        }
        return value.longValueExact();
    }

    /**
     * Checks a JSON integer already read as a {@link BigInteger}, given at {@code path}; a null
     * {@code value} or {@code path} is a NullPointerException naming it.
     */
    public static long fromInteger(BigInteger value, String path) {
        Require.nonNull(value, "value");
        Require.nonNull(path, "path");
        if (value.signum() < 0) {
            throw Require.invalid(path, value.toString(), "a size or address cannot be negative, got " + value);
        }
        if (value.compareTo(MAX) > 0) {
            throw Require.invalid(path, value.toString(), value + " is above the largest size 2^63-1 = "
                    + Long.MAX_VALUE);
        }
        return value.longValueExact();
    }

    private static BigInteger digits(String s, String text, String path) {
        boolean hex = s.startsWith("0x") || s.startsWith("0X");
        String body = hex ? s.substring(2) : s;
        if (body.startsWith("-")) {
            throw Require.invalid(path, text, "a size or address cannot be negative, got '" + text + "'");
        }
        if (body.isEmpty() || body.startsWith("_") || body.endsWith("_") || body.contains("__")) {
            throw Require.invalid(path, text, "'" + text
                    + "' is not a whole number of bytes: '_' may only stand between digits");
        }
        StringBuilder clean = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '_') {
                continue;
            }
            boolean ok = hex ? Character.digit(c, 16) >= 0 && c < 128 : c >= '0' && c <= '9';
            if (!ok) {
                String why = (c == '.' || c == 'e' || c == 'E') && !hex
                        ? "'" + text + "' is not a whole number of bytes (no fractions or exponents)"
                        : "'" + text + "' is not a size: expected decimal or 0x-hexadecimal digits with an optional unit B, KiB, MiB, GiB or TiB";
                throw Require.invalid(path, text, why);
            }
            clean.append(c);
        }
        return new BigInteger(clean.toString(), hex ? 16 : 10);
    }

    private static final Pattern SI =
            Pattern.compile("^([0-9_.]+)\\s*([kKMGT])B?$");

    /** For "20KB", "1 MB", "4M": the binary unit the user most likely meant, or null. */
    private static String siHint(String s) {
        Matcher m = SI.matcher(s);
        if (!m.matches()) {
            return null;
        }
        return m.group(1) + " " + Character.toUpperCase(m.group(2).charAt(0)) + "iB";
    }

    /** Formats a byte count for people: exact bytes, with an IEC figure when it helps. */
    public static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] u = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        int i = 0;
        double v = bytes / 1024.0;
        while (v >= 1024 && i < u.length - 1) {
            v /= 1024;
            i++;
        }
        String num = v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
        return bytes + " B (" + num + " " + u[i] + ")";
    }
}
