package dev.berth.cli;

import dev.berth.arith.Sizes;
import dev.berth.failure.BerthException;

import java.util.AbstractMap;
import java.util.Map;

/** Parses {@code SPACE=SIZE} options with the contract's number syntax. */
final class SizeConverter {
    private SizeConverter() {
    }

    static Map.Entry<String, Long> spaceSize(String option, String text) {
        int eq = text.indexOf('=');
        if (eq <= 0 || eq == text.length() - 1) {
            throw BerthException.invalid(option, text, option + ": expected SPACE=SIZE, got '" + text + "'");
        }
        String space = text.substring(0, eq).strip();
        return new AbstractMap.SimpleImmutableEntry<>(space, Sizes.parse(text.substring(eq + 1), option + " " + space));
    }
}
