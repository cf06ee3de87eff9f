package dev.berth.io;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.berth.artifact.PlannedBuffer;

import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * The plan artifact's {@code buffers} entries after the first, as the text {@link ArtifactPrinter}
 * gives them, written straight into the generator's output: a million entries otherwise cost a
 * million rounds of the pretty printer's callbacks per member (about half of writing the file).
 *
 * <p>Only an entry whose strings need no escape (printable ASCII but the quote and the backslash:
 * what {@link ControlEscapes} leaves as it is) is written here; {@link #write} says no to any
 * other, and the caller writes it through the generator. The first entry always goes through the
 * generator, so the array's state (its object elements, its count) is what the rest assumes: each
 * entry here begins with the separator, and the array's end is the printer's.
 * {@code PlanJsonTest} checks that both ways give the same bytes.
 */
final class BufferLines {
    /** The indentation of an entry of the top-level {@code buffers} array, and of its members. */
    private static final String ENTRY = ",\n    {\n      \"name\": \"";
    private static final String MEMBER = ",\n      \"";
    private static final String END = "\n    }";

    private char[] text = new char[256];
    private int length;

    /** Writes {@code b} as the next entry when its strings need no escape; false (nothing written) otherwise. */
    boolean write(JsonGenerator g, PlannedBuffer b) throws IOException {
        Optional<String> of = b.of();
        Optional<String> shares = b.sharesWith();
        if (!plain(b.name()) || !plain(b.space()) || (of.isPresent() && !plain(of.get()))
                || (shares.isPresent() && !plain(shares.get()))) {
            return false;
        }
        length = 0;
        append(ENTRY).append(b.name()).append('"');
        string("space", b.space());
        number("offset", b.offset());
        number("requested", b.requested());
        number("reserved", b.reserved());
        number("alignment", b.alignment());
        append(MEMBER).append("live\": [").append(b.live().first()).append(", ").append(b.live().last()).append(']');
        string("origin", b.origin().id());
        if (of.isPresent()) {
            string("of", of.get());
        }
        if (shares.isPresent()) {
            string("sharesWith", shares.get());
        }
        append(END);
        g.writeRaw(text, 0, length);
        return true;
    }

    /** Printable ASCII without the quote and the backslash: written as it is. */
    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private void string(String key, String value) {
        append(MEMBER).append(key).append("\": \"").append(value).append('"');
    }

    private void number(String key, long value) {
        append(MEMBER).append(key).append("\": ").append(value);
    }

    private BufferLines append(String s) {
        room(s.length());
        s.getChars(0, s.length(), text, length);
        length += s.length();
        return this;
    }

    private BufferLines append(char c) {
        room(1);
        text[length++] = c;
        return this;
    }

    /** The decimal digits of {@code v}, as {@link Long#toString(long)} writes them. */
    private BufferLines append(long v) {
        room(20);
        if (v < 0) {
            // Long.MIN_VALUE has no positive twin: its text, once
            if (v == Long.MIN_VALUE) {
                return append(Long.toString(v));
            }
            text[length++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        for (int i = length + digits - 1; i >= length; i--) {
            text[i] = (char) ('0' + v % 10);
            v /= 10;
        }
        length += digits;
        return this;
    }

    private void room(int more) {
        if (length + more > text.length) {
            text = Arrays.copyOf(text, Math.max(2 * text.length, length + more));
        }
    }
}
