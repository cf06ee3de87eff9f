package dev.berth.workload;

import dev.berth.failure.Require;
import dev.berth.schedule.Role;

import java.util.List;

/**
 * What the operators make of one buffer of a workload with operators: its {@link Role} (which
 * fixes where it is live and whether it may be written over) and the inputs it may be written over.
 */
public record BufferUse(String buffer, Role role, List<Overwrite> overwrites) {
    public BufferUse {
        Require.nonNull(buffer, "use.buffer");
        Require.nonNull(role, "use.role");
        overwrites = Require.elements(overwrites, "use.overwrites");
    }

    /** A buffer of {@code role} that is written over nothing. */
    public BufferUse(String buffer, Role role) {
        this(buffer, role, List.of());
    }
}
