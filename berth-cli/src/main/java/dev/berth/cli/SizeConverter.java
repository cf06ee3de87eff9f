package dev.berth.cli;

import dev.berth.arith.Sizes;
import dev.berth.failure.Require;

import java.util.AbstractMap;
import java.util.Map;

/** Parses {@code SPACE=SIZE} options with the contract's number syntax. */
final class SizeConverter {
    private SizeConverter() {
    }

    static Map.Entry<String, Long> spaceSize(String option, String text) {
        int eq = text.indexOf('=');
        if (eq <= 0 || eq == text.length() - 1) {
            throw Require.invalid(option, text, "expected SPACE=SIZE, got '" + text + "'");
        }
        String space = text.substring(0, eq).strip();
        return new AbstractMap.SimpleImmutableEntry<>(space, Sizes.parse(text.substring(eq + 1), option + " " + space));
    }
}
