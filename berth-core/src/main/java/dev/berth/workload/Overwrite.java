package dev.berth.workload;

import dev.berth.failure.Require;
import dev.berth.schedule.Reuse;

/**
 * An input of a buffer's producing operator that the buffer may be written over, and why
 * (contract §5.3 {@code overwrites}).
 */
public record Overwrite(String input, Reuse reason) {
    public Overwrite {
        Require.nonNull(input, "overwrite.input");
        Require.nonNull(reason, "overwrite.reason");
    }
}
