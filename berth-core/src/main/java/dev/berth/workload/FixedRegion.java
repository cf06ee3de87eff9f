package dev.berth.workload;

import dev.berth.failure.Require;
import dev.berth.target.Space;

/** A region an earlier stage already placed: exactly {@code size} bytes at exactly {@code offset}. */
public record FixedRegion(String name, Space space, long offset, long size, Lifetime live) {
    public FixedRegion {
        Require.name(name, "fixed.name");
        Require.nonNull(space, "fixed.space");
        Require.nonNegative(offset, "fixed '" + name + "'.offset");
        Require.nonNegative(size, "fixed '" + name + "'.size");
        Require.nonNull(live, "fixed.live");
        if (size > Long.MAX_VALUE - offset) {
            throw Require.invalid("fixed '" + name + "'", "offset " + offset + " + size "
                    + size + " is not a range of bytes in 0..2^63-1");
        }
    }

    /** {@code size} bytes at {@code offset} in {@code space}, live over {@code live}. */
    public static FixedRegion at(String name, Space space, long offset, long size, Lifetime live) {
        return new FixedRegion(name, space, offset, size, live);
    }
}
