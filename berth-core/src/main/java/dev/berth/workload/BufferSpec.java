package dev.berth.workload;

import java.util.Optional;

/** A buffer to place: {@code size} bytes in {@code space}, live over {@code live}. */
public record BufferSpec(String name, long size, String space, long alignment, Lifetime live,
                         Optional<TileSpec> tile) {
    public BufferSpec(String name, long size, String space, long alignment, Lifetime live) {
        this(name, size, space, alignment, live, Optional.empty());
    }
}
