package dev.berth.workload;

import dev.berth.failure.Require;

/**
 * A chosen in-place pair: buffer {@code output} is written over buffer {@code input} by the
 * operator that writes it; the two have equal offsets (contract §5.3).
 */
public record Shared(String output, String input) {
    public Shared {
        Require.nonNull(output, "shared.output");
        Require.nonNull(input, "shared.input");
    }
}
