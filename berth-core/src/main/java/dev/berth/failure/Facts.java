package dev.berth.failure;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The numbers a person needs to check a rejected reservation by hand. Every field is optional
 * because not every failure is about one reservation; none is ever null.
 */
public record Facts(
        Optional<String> buffer,
        Optional<String> space,
        OptionalLong start,
        OptionalLong requested,
        OptionalLong reserved,
        OptionalLong alignment,
        OptionalLong limit,
        Optional<String> limitSource) {

    public static final Facts NONE = new Facts(Optional.empty(), Optional.empty(), OptionalLong.empty(),
            OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
            Optional.empty());

    public Facts withBuffer(String v) {
        return new Facts(Optional.of(v), space, start, requested, reserved, alignment, limit, limitSource);
    }

    public Facts withSpace(String v) {
        return new Facts(buffer, Optional.of(v), start, requested, reserved, alignment, limit, limitSource);
    }

    public Facts withStart(long v) {
        return new Facts(buffer, space, OptionalLong.of(v), requested, reserved, alignment, limit, limitSource);
    }

    public Facts withRequested(long v) {
        return new Facts(buffer, space, start, OptionalLong.of(v), reserved, alignment, limit, limitSource);
    }

    public Facts withReserved(long v) {
        return new Facts(buffer, space, start, requested, OptionalLong.of(v), alignment, limit, limitSource);
    }

    public Facts withAlignment(long v) {
        return new Facts(buffer, space, start, requested, reserved, OptionalLong.of(v), limit, limitSource);
    }

    public Facts withLimit(long v, String source) {
        return new Facts(buffer, space, start, requested, reserved, alignment, OptionalLong.of(v),
                Optional.of(source));
    }
}
