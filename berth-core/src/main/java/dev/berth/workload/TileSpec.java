package dev.berth.workload;

import java.util.OptionalInt;

/** A tensor processed through local space {@code through} in {@code buffers}-deep tile buffers. */
public record TileSpec(String through, int buffers, OptionalInt count) {
}
