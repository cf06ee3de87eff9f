package dev.berth.failure;

import dev.berth.text.Visible;

import java.util.List;
import java.util.Objects;

/**
 * The argument checks of the public constructors and builders: each failure is an
 * {@code invalid-input} {@link BerthException} naming the field, thrown at the call that
 * received the bad value. A null argument is a {@link NullPointerException} naming the
 * parameter, thrown there too.
 */
public final class Require {
    private Require() {
    }

    /**
     * An {@code invalid-input} failure at {@code path} whose message is {@code path: reason}, the
     * form of every message that names where the bad input is.
     */
    public static BerthException invalid(String path, String reason) {
        return BerthException.invalid(path, path + ": " + reason);
    }

    /** {@link #invalid(String, String)} quoting {@code value}, the text given at {@code path}. */
    public static BerthException invalid(String path, String value, String reason) {
        return BerthException.invalid(path, value, path + ": " + reason);
    }

    /** {@code value}, or a {@link NullPointerException} naming {@code field}. */
    public static <T> T nonNull(T value, String field) {
        return Objects.requireNonNull(value, field);
    }

    /** An immutable copy of {@code list}; a null list or element is a NullPointerException naming it. */
    public static <T> List<T> elements(List<T> list, String field) {
        nonNull(list, field);
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) == null) {
                // the path is written only for the element that is missing (a list may hold 10^6)
                nonNull(null, field + "[" + i + "]");
            }
        }
        return List.copyOf(list);
    }

    /** A name: not null, not empty (any other text is a name: model formats allow it). */
    public static String name(String value, String field) {
        nonNull(value, field);
        if (value.isEmpty()) {
            throw invalid(field, value, "must not be empty");
        }
        return value;
    }

    /**
     * A space name: a {@linkplain #name name} that a deployment input can also write as
     * {@code SPACE=SIZE}, so no {@code '='}, no control character (U+0000..U+001F,
     * U+007F..U+009F) and no whitespace at either end. {@code invalid-input} at {@code field}
     * naming the space otherwise.
     */
    public static String spaceName(String value, String field) {
        name(value, field);
        String why = null;
        for (int i = 0; i < value.length() && why == null; i++) {
            char c = value.charAt(i);
            if (c == '=') {
                why = "contains '='";
            } else if (Character.isISOControl(c)) {
                why = "contains the control character " + String.format("U+%04X", (int) c);
            }
        }
        if (why == null && (Character.isWhitespace(value.codePointAt(0))
                || Character.isWhitespace(value.codePointBefore(value.length())))) {
            why = "begins or ends with whitespace";
        }
        if (why != null) {
            throw invalid(field, value, "the space name " + quoted(value) + " " + why
                    + "; a space name may not contain '=' or control characters, nor begin or end with whitespace, "
                    + "so that a deployment input can name it as SPACE=SIZE");
        }
        return value;
    }

    /** {@code 'text'} with each control character written as its code ({@link Visible}). */
    private static String quoted(String text) {
        return "'" + Visible.text(text) + "'";
    }

    /** A byte count or offset: 0..2^63-1. */
    public static long nonNegative(long value, String field) {
        if (value < 0) {
            throw invalid(field, Long.toString(value), "must be a whole number of bytes "
                    + "in 0..2^63-1, got " + value);
        }
        return value;
    }

    /** An alignment or count: 1..2^63-1. */
    public static long positive(long value, String field) {
        if (value <= 0) {
            throw invalid(field, Long.toString(value), "must be a positive whole number, got "
                    + value);
        }
        return value;
    }

    /** An int count: 1..2^31-1. */
    public static int positive(int value, String field) {
        return (int) positive((long) value, field);
    }
}
