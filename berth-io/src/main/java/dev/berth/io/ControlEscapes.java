package dev.berth.io;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * The escapes of Berth's JSON output: what JSON requires (U+0000..U+001F, the quote and the
 * backslash) and also DEL and the C1 controls (U+007F..U+009F, among them U+009B, a terminal's
 * CSI), each as a backslash, {@code u} and four hex digits, so that no name read from an input
 * reaches a terminal raw through {@code --json} either (contract §7, "Names in text output").
 * Every other character is written as it is, in UTF-8; a JSON reader gives back the same text.
 */
final class ControlEscapes extends CharacterEscapes {
    static final ControlEscapes INSTANCE = new ControlEscapes();

    private static final long serialVersionUID = 1L;
    private static final int FIRST_C1 = 0x80;
    private static final int LAST_C1 = 0x9F;

    private final int[] ascii;
    private final SerializedString[] c1 = new SerializedString[LAST_C1 - FIRST_C1 + 1];

    private ControlEscapes() {
        ascii = standardAsciiEscapesForJSON();
        ascii[0x7F] = ESCAPE_STANDARD;
        for (int c = FIRST_C1; c <= LAST_C1; c++) {
            c1[c - FIRST_C1] = new SerializedString(String.format("\\u%04X", c));
        }
    }

    @Override
    public int[] getEscapeCodesForAscii() {
        return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
        return ch >= FIRST_C1 && ch <= LAST_C1 ? c1[ch - FIRST_C1] : null;
    }
}
